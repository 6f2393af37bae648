// Package server is the reference central lottery system: the gRPC service of
// central.proto over mutual TLS, drawing every round with engine.Play on a
// crypto/rand source, signing outcome and Risk bodies with Ed25519, and
// keeping rounds, cabinets, vouchers, events and meters in SQLite
// (modernc.org/sqlite, pure Go) or PostgreSQL. One writer goroutine commits
// requests in groups (group commit), each request in its own savepoint, so
// every reply the server sends is durable first.
//
// Server is the adapter: each call of the Central service (grpc.go) admits
// the cabinet its certificate names and hands the request to the service
// that owns what it changes. The services, each with its own state and
// invariants, all writing through the one store:
//
//   - Cabinets (cabinets.go): admission, halls, the enabled state.
//   - Links (links.go, linkstats.go): command streams, jackpot values on
//     them, link statistics, refused TLS handshakes.
//   - Alarms (alarms.go): alarm and audit rows, logged and counted.
//   - Mirror (mirror.go): each cabinet's credit mirror, its reconciliation
//     at Hello and the operator's corrections.
//   - Rounds (rounds.go, void.go): draws, commits, Risk cards, the
//     operator's void.
//   - vouchers (vouchers.go), playerDesk (players.go, over Config.Players),
//     intake (intake.go: events and meter reports).
//
// Dependencies among them point one way: Rounds and vouchers use Cabinets,
// Mirror and Alarms; Cabinets tells Links; Mirror raises Alarms. The refusal
// reasons are central/proto/refusal's; the store's read queries are
// central/reports'.
package server
