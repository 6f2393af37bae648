package backoffice

import (
	"context"
	"strings"
	"testing"

	"github.com/polaris-vlt/polaris/central/internal/testenv"
	"github.com/polaris-vlt/polaris/central/server"
)

// TestOnPostgres runs the back office's store and security tests on a
// PostgreSQL store (one throwaway cluster for the package, a database per
// rig), and the audit log's refusal to any other connection to it.
func TestOnPostgres(t *testing.T) {
	testenv.OnPostgres(t)
	for _, c := range []struct {
		name string
		run  func(*testing.T)
	}{
		{"PagesRefuseUsersWithoutTheRole", TestPagesRefuseUsersWithoutTheRole},
		{"CSRFRefused", TestCSRFRefused},
		{"BadLoginsSlowed", TestBadLoginsSlowed},
		{"AuditLogCannotBeEdited", TestAuditLogCannotBeEdited},
		{"VoucherVoidNeedsTwoPeople", TestVoucherVoidNeedsTwoPeople},
		{"SessionsEnd", TestSessionsEnd},
		{"JackpotPayoutChecks", TestJackpotPayoutChecks},
		{"UsersByAdministratorOnly", TestUsersByAdministratorOnly},
		{"ReviewDecidedInTheConsole", TestReviewDecidedInTheConsole},
		{"AuditLogAppendOnlyForEveryConnection", testAuditAppendOnlyOnPostgres},
	} {
		t.Run(c.name, c.run)
	}
}

// On PostgreSQL the audit log refuses UPDATE, DELETE and TRUNCATE (which
// skips row triggers) to a connection of its own, not only the server's
// writer: the refusal is the database's, as SQLite's triggers are.
func testAuditAppendOnlyOnPostgres(t *testing.T) {
	r := newRig(t)
	if !server.IsPostgresURL(r.e.DB) {
		t.Fatalf("the rig's store is not PostgreSQL: %s", r.e.DB)
	}
	db, err := server.OpenPostgres(r.e.DB)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM bo_audit`).Scan(&n); err != nil || n < 6 {
		t.Fatalf("%d audit rows (%v), want the six users' creation", n, err)
	}
	for _, q := range []string{
		`UPDATE bo_audit SET actor = 'mallory' WHERE seq = 1`,
		`DELETE FROM bo_audit WHERE seq = 1`,
		`TRUNCATE bo_audit`,
	} {
		if _, err := db.ExecContext(ctx, q); err == nil || !strings.Contains(err.Error(), "bo_audit is append-only") {
			t.Errorf("%s: %v, want the trigger's refusal", q, err)
		}
	}
	var m int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM bo_audit WHERE actor <> 'mallory'`).Scan(&m); err != nil || m != n {
		t.Fatalf("audit rows %d → %d (%v)", n, m, err)
	}
	// Appending still works, with the identity's next number.
	var seq int64
	if err := db.QueryRowContext(ctx, `INSERT INTO bo_audit(at, actor, address, action, object, before_value, after_value) VALUES(1, 'test', '', 'test', '', '', '') RETURNING seq`).Scan(&seq); err != nil || seq != int64(n)+1 {
		t.Fatalf("append: seq %d (%v), want %d", seq, err, n+1)
	}
}
