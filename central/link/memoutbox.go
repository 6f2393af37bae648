package link

import "sync"

// MemOutbox is an Outbox in memory: the fake beside the interface, and the
// load test's virtual cabinets. It survives nothing; a cabinet's outbox is
// its ledger.
type MemOutbox struct {
	mu   sync.Mutex
	next int64
	msgs []OutboxMessage
}

var _ Outbox = (*MemOutbox)(nil)

// Enqueue appends a message and returns its id (1, 2, …).
func (o *MemOutbox) Enqueue(kind string, payload []byte) (int64, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.next++
	o.msgs = append(o.msgs, OutboxMessage{ID: o.next, Kind: kind, Payload: append([]byte{}, payload...)})
	return o.next, nil
}

// Pending returns up to limit messages in id order.
func (o *MemOutbox) Pending(limit int) ([]OutboxMessage, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]OutboxMessage(nil), o.msgs[:min(limit, len(o.msgs))]...), nil
}

// Ack removes message id; an absent id is a repeat, not an error.
func (o *MemOutbox) Ack(id int64) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i, m := range o.msgs {
		if m.ID == id {
			o.msgs = append(o.msgs[:i], o.msgs[i+1:]...)
			break
		}
	}
	return nil
}

// Len is the number of messages not yet acknowledged.
func (o *MemOutbox) Len() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.msgs)
}
