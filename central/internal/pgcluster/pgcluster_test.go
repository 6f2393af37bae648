package pgcluster_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/polaris-vlt/polaris/central/internal/pgcluster"
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
