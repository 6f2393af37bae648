// Package central holds the cabinet ↔ central-system protocol (protobuf over
// gRPC with mutual TLS), the client the cabinet uses, and the reference
// central lottery system: RNG draws through engine.Play, the outcome store,
// jackpot pools, voucher validation, event intake and the hall jackpot page.
// The refusal reasons, and what the cabinet does with a round refused with
// each, are central/proto/refusal's; the store's read queries for the back
// office and auditors are central/reports'.
package central
