package pgcluster_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/polaris-vlt/polaris/internal/pgcluster"
)

// The cluster answers on loopback, makes databases, survives a restart,
// and its directory is gone after Stop.
func TestCluster(t *testing.T) {
	c := pgcluster.ForTest(t)
	url, err := c.CreateDatabase("t1")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	var v string
	if err := conn.QueryRow(ctx, "SHOW server_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)
	t.Logf("PostgreSQL %s on port %d", v, c.Port)
	if err := c.Restart(); err != nil {
		t.Fatal(err)
	}
	conn, err = pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)
}

// A synchronous replica follows the primary; promoted, it takes writes,
// and the failover URL finds it.
func TestReplicaPromote(t *testing.T) {
	c := pgcluster.ForTest(t)
	if _, err := c.CreateDatabase("r"); err != nil {
		t.Fatal(err)
	}
	r, err := c.StartReplica()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Stop() })
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, c.URL("r"))
	if err != nil {
		t.Fatal(err)
	}
	// Answered only once the replica has it (synchronous).
	if _, err := conn.Exec(ctx, "CREATE TABLE t(x BIGINT); INSERT INTO t VALUES (42)"); err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)
	if err := c.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := r.Promote(); err != nil {
		t.Fatal(err)
	}
	conn, err = pgx.Connect(ctx, pgcluster.FailoverURL("r", c, r))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var x int64
	if err := conn.QueryRow(ctx, "SELECT x FROM t").Scan(&x); err != nil || x != 42 {
		t.Fatalf("after the promotion: %d, %v", x, err)
	}
	if _, err := conn.Exec(ctx, "INSERT INTO t VALUES (43)"); err != nil {
		t.Fatalf("the promoted replica takes no write: %v", err)
	}
}
