// Package crashtest kills a process in the middle of ledger transactions,
// again and again, and checks after every restart that both copies verify
// and that credit, meters, pending documents, the open round,
// configuration and the outbox equal what the acknowledged transactions
// imply — the one in flight at the kill applied entirely or not at all.
//
// The child (RunChild) performs a random mix of transactions and writes
// one line before each call ("B <op>") and one after it returned ("A <n>")
// to a pipe; a pipe keeps what was written when its writer dies, so the
// harness (Run) knows exactly what was acknowledged. The harness keeps its
// own model of the accounting rules, independent of the ledger's code.
package crashtest
