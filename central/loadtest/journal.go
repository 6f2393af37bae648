package loadtest

import (
	"encoding/binary"
	"errors"
	"os"
	"sync"
)

// journal is the virtual cabinets' own durable store (Options.Journal):
// one append-only file the cabinets share, group-committed — every record
// that arrived while the last fsync ran goes out in one write and one
// fsync — as a cabinet's ledger makes WAGER, OUTCOME (with the signed
// body) and SETTLE durable before it goes on. A real cabinet has its own
// disk and cores; here the cost lands on the central system's two cores.
type journal struct {
	f       *os.File
	mu      sync.Mutex
	buf     []byte
	waiters []chan error
	kick    chan struct{}
	done    chan struct{}
	err     error
}

func openJournal(path string) (*journal, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	j := &journal{f: f, kick: make(chan struct{}, 1), done: make(chan struct{})}
	go j.run()
	return j, nil
}

var errJournalClosed = errors.New("loadtest: journal closed")

// append writes one record (kind, cabinet index, round, data) and returns
// once it is on disk.
func (j *journal) append(kind byte, cab int, n uint64, data ...[]byte) error {
	done := make(chan error, 1)
	j.mu.Lock()
	if j.err != nil {
		j.mu.Unlock()
		return j.err
	}
	size := 0
	for _, d := range data {
		size += len(d)
	}
	j.buf = append(j.buf, kind)
	j.buf = binary.BigEndian.AppendUint32(j.buf, uint32(cab))
	j.buf = binary.BigEndian.AppendUint64(j.buf, n)
	j.buf = binary.BigEndian.AppendUint32(j.buf, uint32(size))
	for _, d := range data {
		j.buf = append(j.buf, d...)
	}
	j.waiters = append(j.waiters, done)
	j.mu.Unlock()
	select {
	case j.kick <- struct{}{}:
	default:
	}
	return <-done
}

func (j *journal) run() {
	defer close(j.done)
	var buf []byte
	for range j.kick {
		j.mu.Lock()
		buf, j.buf = j.buf, buf[:0]
		waiters := j.waiters
		j.waiters = nil
		j.mu.Unlock()
		if len(waiters) == 0 {
			continue
		}
		_, err := j.f.Write(buf)
		if err == nil {
			err = j.f.Sync()
		}
		if err != nil {
			j.mu.Lock()
			j.err = err
			j.mu.Unlock()
		}
		for _, w := range waiters {
			w <- err
		}
	}
}

func (j *journal) close() error {
	j.mu.Lock()
	if j.err == nil {
		j.err = errJournalClosed
	}
	j.mu.Unlock()
	close(j.kick)
	<-j.done
	return j.f.Close()
}
