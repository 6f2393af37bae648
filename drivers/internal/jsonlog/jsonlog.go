// Package jsonlog is the durable record the device emulators keep of what
// physically happened (documents stacked, tickets printed): a JSON-lines
// file, each entry fsynced as it is appended, that a power cut can only cut
// short at its last line.
package jsonlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// Read reads a log. A last line cut short by a power cut is ignored;
// damage anywhere else is an error. A missing file is an empty log.
func Read[T any](path string) ([]T, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	entries, _, err := parse[T](b)
	return entries, err
}

// parse returns the entries and the length of the intact prefix.
func parse[T any](b []byte) ([]T, int, error) {
	var out []T
	good := 0
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		end := good + len(line) + 1
		var e T
		if err := json.Unmarshal(line, &e); err != nil {
			if end >= len(b) { // the torn last line
				return out, good, nil
			}
			return nil, 0, fmt.Errorf("document log line %d: %w", len(out)+1, err)
		}
		if end > len(b) { // complete JSON without its newline: still written whole
			end = len(b)
		}
		out = append(out, e)
		good = end
	}
	return out, good, sc.Err()
}

// Log appends entries to a log file, each fsynced. Its methods are safe on
// a nil Log (no log kept).
type Log[T any] struct {
	f      *os.File
	seq    int
	setSeq func(*T, int)
	err    error // the first write failure
}

// Open opens (or creates) the log at path and returns the entries it holds.
// A torn last line is cut off so the next entry starts clean. setSeq numbers
// each appended entry 1, 2, … across reopenings.
func Open[T any](path string, setSeq func(*T, int)) (*Log[T], []T, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, nil, err
	}
	b, err := io.ReadAll(f)
	if err == nil {
		var entries []T
		var good int
		if entries, good, err = parse[T](b); err == nil {
			if err = f.Truncate(int64(good)); err == nil {
				_, err = f.Seek(int64(good), io.SeekStart)
			}
			if err == nil {
				return &Log[T]{f: f, seq: len(entries), setSeq: setSeq}, entries, nil
			}
		}
	}
	f.Close()
	return nil, nil, fmt.Errorf("document log %s: %w", path, err)
}

// Append writes e, numbered, and syncs it; after a failure it writes
// nothing more and Err says why.
func (l *Log[T]) Append(e T) {
	if l == nil || l.err != nil {
		return
	}
	l.seq++
	l.setSeq(&e, l.seq)
	b, err := json.Marshal(e)
	if err == nil {
		_, err = l.f.Write(append(b, '\n'))
	}
	if err == nil {
		err = l.f.Sync()
	}
	l.err = err
}

// Err is the first write failure.
func (l *Log[T]) Err() error {
	if l == nil {
		return nil
	}
	return l.err
}

// Close closes the file.
func (l *Log[T]) Close() error {
	if l == nil {
		return nil
	}
	return l.f.Close()
}
