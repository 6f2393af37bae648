// Package sqliteoutbox is a durable link.Outbox in an SQLite file (WAL,
// synchronous=FULL): what the link's own tests, the load test and the
// embedded demo use until the cabinet ledger provides its outbox.
package sqliteoutbox

import (
	"database/sql"
	"fmt"

	_ "modernc.org/sqlite"

	"github.com/polaris-vlt/polaris/central/link"
)

// Outbox is an SQLite-backed link.Outbox.
type Outbox struct{ db *sql.DB }

var _ link.Outbox = (*Outbox)(nil)

// Open opens or creates the outbox file at path.
func Open(path string) (*Outbox, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=busy_timeout(10000)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS outbox(id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, payload BLOB NOT NULL)`); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqliteoutbox: %w", err)
	}
	return &Outbox{db: db}, nil
}

// Enqueue stores a message and returns its id (increasing, never reused).
func (o *Outbox) Enqueue(kind string, payload []byte) (int64, error) {
	if payload == nil {
		payload = []byte{}
	}
	res, err := o.db.Exec(`INSERT INTO outbox(kind, payload) VALUES(?,?)`, kind, payload)
	if err != nil {
		return 0, fmt.Errorf("sqliteoutbox: %w", err)
	}
	return res.LastInsertId()
}

// Pending returns up to limit messages in id order.
func (o *Outbox) Pending(limit int) ([]link.OutboxMessage, error) {
	rows, err := o.db.Query(`SELECT id, kind, payload FROM outbox ORDER BY id LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("sqliteoutbox: %w", err)
	}
	defer rows.Close()
	var out []link.OutboxMessage
	for rows.Next() {
		var m link.OutboxMessage
		if err := rows.Scan(&m.ID, &m.Kind, &m.Payload); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// Ack removes message id; acking an absent id is not an error (a repeat).
func (o *Outbox) Ack(id int64) error {
	_, err := o.db.Exec(`DELETE FROM outbox WHERE id=?`, id)
	return err
}

// Close closes the file.
func (o *Outbox) Close() error { return o.db.Close() }
