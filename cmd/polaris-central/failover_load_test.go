package main

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/loadtest"
	"github.com/polaris-vlt/polaris/internal/hosttools"
	"github.com/polaris-vlt/polaris/internal/pgcluster"
)

// The small version of `make failover-central-pg-full`: three
// polaris-central processes (this test binary as the server, TestMain) on
// a throwaway PostgreSQL primary with a synchronous replica, 20 cabinets
// playing with outbox events and vouchers; node 2 SIGKILLed and started
// again, then the primary killed and the replica promoted. The audit must
// find every round, voucher and event stored once as the cabinets were
// answered and every pool exact, and each failure must be on the timeline
// with the cabinets served after it.
func TestFailoverUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes and two PostgreSQL servers")
	}
	if _, err := pgcluster.Bin(); err != nil {
		hosttools.Need(t, "initdb")
		hosttools.Need(t, "pg_ctl")
	}
	res, err := loadtest.Run(context.Background(), loadtest.Options{
		Cabinets: 20, Duration: 14 * time.Second, Every: 400 * time.Millisecond, HitGap: 40,
		Postgres: "auto", Nodes: 3,
		NodeCommand: []string{os.Args[0], "-test.run=^$", "--"}, NodeEnv: []string{"POLARIS_CENTRAL_CHILD=1"},
		FailNode: 3 * time.Second, NodeDown: time.Second, FailDB: 8 * time.Second,
		Retries: 40, CallTimeout: 5 * time.Second, Mix: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(res.Line())
	t.Log("\n" + res.FailoverReport() + res.AuditReport() + res.MixReport())
	if !res.OK() {
		t.Fatalf("errors %d (first %v), checks %v", res.Errors, res.FirstErr, res.Checks)
	}
	if res.Vouchers == 0 || res.Events == 0 || res.Outcomes < 100 {
		t.Fatalf("%d outcomes, %d vouchers, %d events: the mix did not run", res.Outcomes, res.Vouchers, res.Events)
	}
	var names []string
	for _, p := range res.Phases {
		names = append(names, p.Name)
	}
	if len(res.Phases) != 5 {
		t.Fatalf("phases %q: want steady, node killed, node back, database failover, after", names)
	}
	if after := res.Phases[4]; after.Outcomes == 0 {
		t.Fatalf("no outcome after the database failover: %+v", after)
	}
	if res.Promoted <= 0 || res.FailedAt < 8*time.Second {
		t.Fatalf("primary killed at %v, promoted in %v", res.FailedAt, res.Promoted)
	}
	// The nodes' own account: each saw the primary lost and reached again.
	for _, n := range []string{"node 1: ", "node 2: ", "node 3: "} {
		lost, back := false, false
		for _, l := range res.NodeLog {
			lost = lost || strings.HasPrefix(l, n) && strings.Contains(l, `msg="database primary lost`)
			back = back || strings.HasPrefix(l, n) && strings.Contains(l, `msg="database primary reached again"`)
		}
		if !lost || !back {
			t.Errorf("%sthe primary lost %v, reached again %v; the nodes' lines:\n%s", n, lost, back, strings.Join(res.NodeLog, "\n"))
		}
	}
}
