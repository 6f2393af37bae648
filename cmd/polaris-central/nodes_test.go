package main

import (
	"bytes"
	"context"
	"net"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/pki"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/internal/pgcluster"
	"github.com/polaris-vlt/polaris/internal/poll"
)

func startNode(t *testing.T, dir, pkiDir, db, addr string) *exec.Cmd {
	t.Helper()
	return startChild(t, dir, addr, "-pki", pkiDir, "-database", db)
}

func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// Two polaris-central processes on one PostgreSQL, one cabinet knowing
// both: node A is killed with SIGKILL right after answering a round, the
// cabinet goes on with node B; A is started again, B stopped, the cabinet
// is back on A. Every round and event batch is stored once, as the
// cabinet got it.
func TestNodeKilledCabinetGoesOn(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	cl := pgcluster.ForTest(t)
	db, err := cl.CreateDatabase("nodes")
	if err != nil {
		t.Fatal(err)
	}
	dirA, dirB := t.TempDir(), t.TempDir()
	offline := serverPKI(t, dirA, "cab-1")
	pkiDir := filepath.Join(dirA, "pki") // both nodes: the same export, signing key and store marker
	addrA, addrB := freeAddr(t), freeAddr(t)
	tlsCfg, err := pki.CabinetTLSDir(offline, "cab-1", "localhost")
	if err != nil {
		t.Fatal(err)
	}
	pub, err := pki.LoadSigningPublicKey(filepath.Join(offline, pki.SigningPub))
	if err != nil {
		t.Fatal(err)
	}
	c, err := link.Dial(link.Config{Addr: addrA + "," + addrB, TLS: tlsCfg, SigningKey: pub, Retries: 40,
		Backoff: 50 * time.Millisecond, MaxBackoff: 250 * time.Millisecond, CallTimeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), poll.Scaled(120*time.Second))
	defer cancel()
	g, err := engine.Lookup(engine.MagicStars)
	if err != nil {
		t.Fatal(err)
	}
	a := startNode(t, dirA, pkiDir, db, addrA)
	b := startNode(t, dirB, pkiDir, db, addrB)
	defer func() {
		for _, p := range []*exec.Cmd{a, b} {
			p.Process.Signal(syscall.SIGTERM)
			p.Wait()
		}
	}()
	bodies := map[uint64][]byte{}
	play := func(from, to uint64) {
		t.Helper()
		for n := from; n <= to; n++ {
			o, err := c.RequestOutcome(ctx, n, g.ID(), g.ModelID(), g.Stakes()[0])
			if err != nil {
				t.Fatalf("round %d: %v", n, err)
			}
			bodies[n] = o.Body
			if err := c.ReportEvents(ctx, int64(n), []link.Event{{Seq: int64(n), At: time.Unix(int64(n), 0), Kind: "k", Text: "t"}}); err != nil {
				t.Fatalf("events %d: %v", n, err)
			}
			if err := c.CommitOutcome(ctx, n); err != nil {
				t.Fatalf("commit %d: %v", n, err)
			}
		}
	}
	play(1, 5)
	// Killed right after answering round 6: its commit goes to B.
	o, err := c.RequestOutcome(ctx, 6, g.ID(), g.ModelID(), g.Stakes()[0])
	if err != nil {
		t.Fatal(err)
	}
	bodies[6] = o.Body
	a.Process.Signal(syscall.SIGKILL)
	a.Wait()
	if err := c.CommitOutcome(ctx, 6); err != nil {
		t.Fatal(err)
	}
	if err := c.ReportEvents(ctx, 6, []link.Event{{Seq: 6, At: time.Unix(6, 0), Kind: "k", Text: "t"}}); err != nil {
		t.Fatal(err)
	}
	play(7, 12)
	if c.Endpoint() != addrB {
		t.Fatalf("on %s with A killed", c.Endpoint())
	}
	a = startNode(t, dirA, pkiDir, db, addrA)
	b.Process.Signal(syscall.SIGTERM)
	b.Wait()
	play(13, 18)
	if c.Endpoint() != addrA {
		t.Fatalf("on %s with B stopped and A back", c.Endpoint())
	}
	sdb, err := server.OpenPostgres(db)
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	var rounds, open, events int
	if err := sdb.QueryRow(`SELECT count(*), count(*) - count(committed_at) FROM rounds`).Scan(&rounds, &open); err != nil {
		t.Fatal(err)
	}
	if err := sdb.QueryRow(`SELECT count(*) FROM events`).Scan(&events); err != nil {
		t.Fatal(err)
	}
	if rounds != 18 || open != 0 || events != 18 {
		t.Fatalf("%d rounds (%d open), %d events; want 18, 0, 18", rounds, open, events)
	}
	for n, want := range bodies {
		var got []byte
		if err := sdb.QueryRow(`SELECT body FROM rounds WHERE cabinet=? AND round=?`, "cab-1", int64(n)).Scan(&got); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("round %d: not what the cabinet got (%v)", n, err)
		}
	}
}
