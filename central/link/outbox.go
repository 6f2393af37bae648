package link

// OutboxMessage is one message the cabinet owes the central system (a round
// commit, an event batch, meters). It stays in the outbox until acknowledged.
type OutboxMessage struct {
	ID      int64  // assigned by the outbox, increasing
	Kind    string // e.g. "commit", "events", "meters"
	Payload []byte
}

// Outbox is durable storage for messages to the central system. The
// cabinet's ledger implements it; messages survive restarts and are sent in
// ID order until Ack removes them. Acking an id already acked is a no-op
// (the drain and a request carrying commits may ack the same message).
type Outbox interface {
	Enqueue(kind string, payload []byte) (int64, error)
	Pending(limit int) ([]OutboxMessage, error)
	Ack(id int64) error
}
