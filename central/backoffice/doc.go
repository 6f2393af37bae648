// Package backoffice is the operator's back office: a web console over TLS
// for administrators, hall managers, auditors and attendants, served beside
// the reference central system (polaris-central serve -backoffice ADDR).
//
// Pages are rendered on the server (html/template) with no JavaScript;
// charts are SVG drawn in Go (chart.go), so nothing is vendored. Users log
// in with passwords hashed by argon2id; sessions are server-side (the
// cookie holds a random id, the store its SHA-256), cookies are Secure,
// HttpOnly and SameSite=Strict; every POST carries the session's CSRF
// token; failed logins slow further attempts per user and per address.
// Every action is written to an append-only audit table (triggers refuse
// UPDATE and DELETE; no route edits it) in the same transaction as the
// action where the action is the back office's own.
//
// Data is read through central/reports' queries (typed rows) and written
// through server.Server.Write, the store's single writer.
package backoffice
