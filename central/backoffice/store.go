package backoffice

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"

	"github.com/polaris-vlt/polaris/central/reports"
)

// The back office's own tables are in the central store: its migration 3
// (central/server/store_schema_rooms.go) creates them on either backend at
// start, bo_audit append-only (a trigger refuses UPDATE and DELETE whoever
// asks: SQLite's RAISE, PostgreSQL's PL/pgSQL). schema, run by New in a
// store write, only checks they are there.
const schema = `SELECT count(*) FROM bo_audit WHERE seq = 0`

// Roles.
const (
	RoleAdmin     = "administrator"
	RoleManager   = "manager"
	RoleAuditor   = "auditor"
	RoleAttendant = "attendant"
)

var roles = []string{RoleAdmin, RoleManager, RoleAuditor, RoleAttendant}

// User is a console login.
type User struct {
	Name  string
	Role  string
	Halls []string // the halls a manager or attendant may see
}

// AllHalls: administrators and auditors see every hall.
func (u *User) AllHalls() bool { return u.Role == RoleAdmin || u.Role == RoleAuditor }

// Sees reports whether u may see hall.
func (u *User) Sees(hall string) bool {
	if u.AllHalls() {
		return true
	}
	for _, h := range u.Halls {
		if h == hall {
			return true
		}
	}
	return false
}

// argon2id parameters (RFC 9106's second recommendation, OWASP's minimum
// for argon2id: 19 MiB, 2 passes, 1 lane).
const (
	kdfTime    = 2
	kdfMemory  = 19 * 1024
	kdfThreads = 1
	kdfLen     = 32
)

func hashPassword(password string, salt []byte) []byte {
	return argon2.IDKey([]byte(password), salt, kdfTime, kdfMemory, kdfThreads, kdfLen)
}

// ErrBadUser refuses a user that cannot be created.
var ErrBadUser = errors.New("backoffice: bad user")

// AddUser creates a login (actor "system" in the audit log when actor is "").
func (c *Console) AddUser(ctx context.Context, actor, name, password, role string, halls []string) error {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 64 || strings.ContainsAny(name, " ,\t\n") {
		return fmt.Errorf("%w: name %q", ErrBadUser, name)
	}
	if len(password) < 10 {
		return fmt.Errorf("%w: a password needs at least 10 characters", ErrBadUser)
	}
	ok := false
	for _, r := range roles {
		ok = ok || r == role
	}
	if !ok {
		return fmt.Errorf("%w: role %q (one of %s)", ErrBadUser, role, strings.Join(roles, ", "))
	}
	if (role == RoleManager || role == RoleAttendant) && len(halls) == 0 {
		return fmt.Errorf("%w: a %s needs at least one hall", ErrBadUser, role)
	}
	if role == RoleAdmin || role == RoleAuditor {
		halls = nil
	}
	salt := make([]byte, 16)
	rand.Read(salt)
	hash := hashPassword(password, salt)
	if actor == "" {
		actor = "system"
	}
	now := c.now().UnixNano()
	return c.srv.Write(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRow(`SELECT count(*) FROM bo_users WHERE name = ?`, name).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("%w: %q exists", ErrBadUser, name)
		}
		if _, err := tx.Exec(`INSERT INTO bo_users(name, role, halls, salt, hash, created_at) VALUES(?,?,?,?,?,?)`,
			name, role, strings.Join(halls, ","), salt, hash, now); err != nil {
			return err
		}
		return audit(tx, now, actor, "", "user.create", name, "", role+" "+strings.Join(halls, ","))
	})
}

// checkPassword returns the user when name and password match.
func (c *Console) checkPassword(ctx context.Context, name, password string) (*User, bool, error) {
	var salt, hash []byte
	var halls string
	u := &User{Name: name}
	err := c.srv.DB().QueryRowContext(ctx, `SELECT role, halls, salt, hash FROM bo_users WHERE name = ?`, name).Scan(&u.Role, &halls, &salt, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		// The same work as for a known user: the answer's time does not
		// say whether the name exists.
		hashPassword(password, make([]byte, 16))
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if subtle.ConstantTimeCompare(hashPassword(password, salt), hash) != 1 {
		return nil, false, nil
	}
	u.Halls = splitHalls(halls)
	return u, true, nil
}

func splitHalls(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func sessionKey(id string) string {
	h := sha256.Sum256([]byte(id))
	return hex.EncodeToString(h[:])
}

// audit appends one row to the audit log inside tx.
func audit(tx *sql.Tx, at int64, actor, addr, action, object, before, after string) error {
	_, err := tx.Exec(`INSERT INTO bo_audit(at, actor, address, action, object, before_value, after_value) VALUES(?,?,?,?,?,?,?)`,
		at, actor, addr, action, object, before, after)
	return err
}

// AuditRow is one entry of the audit log.
type AuditRow struct {
	Seq                                           int64
	At                                            int64
	Actor, Address, Action, Object, Before, After string
}

func (c *Console) auditLog(ctx context.Context, limit int) ([]AuditRow, error) {
	rows, err := c.srv.DB().QueryContext(ctx, `SELECT seq, at, actor, address, action, object, before_value, after_value FROM bo_audit ORDER BY seq DESC LIMIT ?`, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []AuditRow
	for rows.Next() {
		var a AuditRow
		if err := rows.Scan(&a.Seq, &a.At, &a.Actor, &a.Address, &a.Action, &a.Object, &a.Before, &a.After); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// Payout is a jackpot payout as recorded (MS-18 form data).
type Payout struct {
	PaidAt                                             int64
	Attendant, Form, WinnerName, WinnerDoc, RecordedBy string
}

func (c *Console) payouts(ctx context.Context) (map[string]Payout, error) {
	rows, err := c.srv.DB().QueryContext(ctx, `SELECT cabinet, round, paid_at, attendant, form_number, winner_name, winner_document, recorded_by FROM bo_jackpot_payouts`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]Payout{}
	for rows.Next() {
		var cab string
		var round uint64
		var p Payout
		if err := rows.Scan(&cab, &round, &p.PaidAt, &p.Attendant, &p.Form, &p.WinnerName, &p.WinnerDoc, &p.RecordedBy); err != nil {
			return nil, err
		}
		out[winKey(cab, round)] = p
	}
	return out, rows.Err()
}

func winKey(cab string, round uint64) string { return fmt.Sprintf("%s/%d", cab, round) }

// VoidRequest is a voucher void waiting for (or given) a second approval.
type VoidRequest struct {
	Number, Reason, RequestedBy, ApprovedBy string
	RequestedAt, ApprovedAt                 int64
}

func (c *Console) voids(ctx context.Context) (map[string]VoidRequest, error) {
	rows, err := c.srv.DB().QueryContext(ctx, `SELECT number, reason, requested_by, requested_at, approved_by, approved_at FROM bo_voucher_voids`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]VoidRequest{}
	for rows.Next() {
		var v VoidRequest
		if err := rows.Scan(&v.Number, &v.Reason, &v.RequestedBy, &v.RequestedAt, &v.ApprovedBy, &v.ApprovedAt); err != nil {
			return nil, err
		}
		out[v.Number] = v
	}
	return out, rows.Err()
}

var _ = reports.Querier(nil)
