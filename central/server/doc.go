// Package server is the reference central lottery system: the gRPC service of
// central.proto over mutual TLS, drawing every round with engine.Play on a
// crypto/rand source, signing outcome and Risk bodies with Ed25519, and
// keeping rounds, cabinets, vouchers, events and meters in SQLite
// (modernc.org/sqlite, pure Go). One writer goroutine commits requests in
// groups (group commit), each request in its own savepoint, so every reply
// the server sends is durable first.
package server
