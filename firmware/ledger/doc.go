// Package ledger is the cabinet's critical memory: the credit meter, the
// accounting meters, the round journal and game recall, pending device
// documents, the bill/ticket/voucher logs, the event log, configuration,
// the state the cabinet resumes from, and the outbox for the central system.
//
// It is kept in two SQLite copies (WAL, synchronous=FULL) on two paths.
// Every transaction is one canonical entry sealed into a SHA-256 hash chain
// together with a digest of the whole resulting state; both copies hold the
// chain. Copies are checked at Open and on every Verify call; one bad copy is
// rebuilt from the good one; a copy that cannot be written (full, read-only,
// I/O error) is a CopyFault, every write refused until Repair rebuilds it;
// no good copy is a persisted RAM error that only a logged RAMClear ends. Writes are serialized, and each row has one
// writing goroutine (README.md, "Who writes"); reads are safe from any.
package ledger
