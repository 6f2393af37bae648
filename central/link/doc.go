// Package link is the cabinet side of the central-system protocol: the gRPC
// client with deadlines, bounded retries and reconnection (failing over
// between central nodes when given several), the outbox it drains, and
// link-state events.
package link
