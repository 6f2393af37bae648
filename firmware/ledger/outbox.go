package ledger

import (
	"encoding/json"
	"fmt"
)

// The ledger is the cabinet's durable outbox: messages are queued in the
// same transactions as the facts they report and survive restarts. It
// stores what the caller gives it as opaque bytes; firmware/outbox hands
// it to the central link as the link's Outbox.

// OutboxMessage is one queued message to the central system.
type OutboxMessage struct {
	ID      int64 // assigned by the ledger, increasing
	Kind    string
	Payload []byte
}

type enqueueArgs struct {
	Kind    string `json:"kind"`
	Payload []byte `json:"payload"`
}

// Enqueue queues a message for the central system and returns its id.
func (l *Ledger) Enqueue(kind string, payload []byte) (int64, error) {
	var id int64
	err := l.do("enqueue", enqueueArgs{kind, payload}, func(t *tx) error {
		if kind == "" {
			return invalid("outbox message without kind")
		}
		id = t.enqueue(kind, payload)
		return nil
	})
	if err != nil {
		return 0, err
	}
	return id, nil
}

// Pending returns up to limit unacknowledged messages in id order.
func (l *Ledger) Pending(limit int) ([]OutboxMessage, error) {
	if limit <= 0 {
		return nil, invalid("limit %d", limit)
	}
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.ram != nil {
		return nil, l.ram // no host traffic from suspect memory
	}
	if l.suspect {
		return nil, ErrReadOnly
	}
	return pendingOutbox(l.kv, limit), nil
}

func pendingOutbox(kv map[string][]byte, limit int) []OutboxMessage {
	var out []OutboxMessage
	for _, k := range keysWithPrefix(kv, "outbox/") {
		if len(out) >= limit {
			break
		}
		var r outboxRow
		var id int64
		if json.Unmarshal(kv[k], &r) != nil {
			continue
		}
		fmt.Sscanf(k[len("outbox/"):], "%d", &id)
		out = append(out, OutboxMessage{ID: id, Kind: r.Kind, Payload: r.Payload})
	}
	return out
}

// Ack removes an acknowledged message. Acknowledging one already removed is
// a no-op (a replay after a restart); an id never issued is ErrNotFound.
func (l *Ledger) Ack(id int64) error {
	return l.do("ack", id, func(t *tx) error {
		if id <= 0 || uint64(id) > t.counter("outbox") {
			return fmt.Errorf("%w: outbox message %d", ErrNotFound, id)
		}
		t.del(seqKey("outbox", uint64(id)))
		return nil
	})
}
