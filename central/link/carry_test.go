package link_test

import (
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/internal/testenv"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/internal/poll"
)

func committed(t *testing.T, e *testenv.Env, n uint64) bool {
	t.Helper()
	return e.Count("rounds", "cabinet='cab-1' AND round=? AND committed_at IS NOT NULL", int64(n)) == 1
}

func eventually(t *testing.T, ok func() bool, what string) {
	t.Helper()
	poll.Until(t, 5*time.Second, what, ok)
}

func pendingKinds(t *testing.T, ob link.Outbox) []string {
	t.Helper()
	ms, err := ob.Pending(100)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range ms {
		out = append(out, m.Kind)
	}
	return out
}

// With CarryCommits, the commits waiting in the outbox ride on the next
// RequestOutcome: stored in the same transaction as the new round, acked
// from the outbox; a commit of a round never drawn and other messages stay
// for the drain; a refused request commits nothing.
func TestCommitsCarriedByNextRequest(t *testing.T) {
	e := testenv.Start(t, nil)
	ob := &link.MemOutbox{}
	c := e.Client("cab-1", func(cfg *link.Config) { cfg.Outbox = ob; cfg.CarryCommits = true })
	model := testenv.TheGame.ModelID()
	if _, err := c.RequestOutcome(ctx(t), 1, testenv.GameID, model, 5); err != nil {
		t.Fatal(err)
	}
	link.EnqueueCommit(ob, 1)
	link.EnqueueEvents(ob, []link.Event{{Seq: 1, At: time.Unix(1, 0), Kind: "door.open"}})
	link.EnqueueCommit(ob, 99) // never drawn
	link.EnqueueCommit(ob, 1)  // the same commit queued twice

	if _, err := c.RequestOutcome(ctx(t), 2, testenv.GameID, model, 10); err != nil {
		t.Fatal(err)
	}
	if !committed(t, e, 1) || committed(t, e, 2) {
		t.Fatal("round 1's commit was not carried by round 2's request")
	}
	// The acks run in the background (a ledger write must not delay the
	// round): wait for them.
	eventually(t, func() bool {
		k := pendingKinds(t, ob)
		return len(k) == 2 && k[0] == link.KindEvents && k[1] == link.KindCommit
	}, "the outbox to hold only the events and the commit of round 99")
	if e.Count("rounds", "committed_at IS NOT NULL") != 1 {
		t.Fatal("a commit of a round never drawn changed the store")
	}

	// A refused request (round 2 again at another stake) keeps none of the
	// commits it carried: they stay in the outbox.
	link.EnqueueCommit(ob, 2)
	if _, err := c.RequestOutcome(ctx(t), 2, testenv.GameID, model, 50); link.Reason(err) != "ROUND_CONFLICT" {
		t.Fatalf("conflicting request: %v", err)
	}
	if committed(t, e, 2) || len(pendingKinds(t, ob)) != 3 {
		t.Fatal("a refused request committed what it carried, or the outbox lost it")
	}
	// The repeat of round 2 (same stake) carries it; the answer is the
	// stored round.
	o, err := c.RequestOutcome(ctx(t), 2, testenv.GameID, model, 10)
	if err != nil {
		t.Fatal(err)
	}
	if string(o.Body) != string(storedBody(t, e, "cab-1", 2)) || !committed(t, e, 2) {
		t.Fatal("repeat did not answer the stored round or did not carry the commit")
	}
	eventually(t, func() bool { return len(pendingKinds(t, ob)) == 2 }, "round 2's commit to be acked")

	// The drain sends what is left: the events, and round 99's commit,
	// which the central system refuses clearly.
	if err := c.DrainOutbox(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if ob.Len() != 0 || e.Count("events", "") != 1 {
		t.Fatal("drain left messages or lost the events")
	}
	for refused := false; !refused; {
		select {
		case ev := <-c.States():
			if ev.Refused != nil {
				if link.Reason(ev.Err) != "ROUND_NOT_FOUND" {
					t.Fatalf("refusal %v", ev.Err)
				}
				refused = true
			}
		default:
			t.Fatal("the commit of a round never drawn was not reported refused")
		}
	}
}

// Without CarryCommits (the default) a request carries nothing; the
// commits waiting in the outbox are sent before it.
func TestCommitsNotCarriedByDefault(t *testing.T) {
	e := testenv.Start(t, nil)
	ob := &link.MemOutbox{}
	c := e.Client("cab-1", func(cfg *link.Config) { cfg.Outbox = ob })
	model := testenv.TheGame.ModelID()
	for n := uint64(1); n <= 2; n++ {
		if _, err := c.RequestOutcome(ctx(t), n, testenv.GameID, model, 5); err != nil {
			t.Fatal(err)
		}
		link.EnqueueCommit(ob, n)
	}
	// Round 2 is drawn only once round 1 is settled: without
	// CarryCommits the client sends the waiting commit on its own first.
	if ob.Len() != 1 || !committed(t, e, 1) || committed(t, e, 2) {
		t.Fatal("round 1's commit was not sent before round 2, or round 2's was")
	}
	if a := e.Server.Alarms().Count("cab-1"); len(a) != 0 {
		t.Fatalf("alarms %v", a)
	}
}
