package cabinet

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/clock/clocktest"

	"github.com/polaris-vlt/polaris/central/embedded"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/deck"
	"github.com/polaris-vlt/polaris/drivers/acceptor"
	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/outbox"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// gatedOutbox is the cabinet's ledger outbox as the central link client
// sees it: while closed, the client finds nothing to send, as when the
// link is down; led follows the ledger across power cuts.
type gatedOutbox struct {
	mu   sync.Mutex
	led  *ledger.Ledger
	open bool
}

var errNoLedger = errors.New("gated outbox: no ledger (power off)")

func (g *gatedOutbox) set(led *ledger.Ledger, open bool) {
	g.mu.Lock()
	g.led, g.open = led, open
	g.mu.Unlock()
}

func (g *gatedOutbox) Enqueue(kind string, p []byte) (int64, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.led == nil {
		return 0, errNoLedger
	}
	return g.led.Enqueue(kind, p)
}

func (g *gatedOutbox) Pending(limit int) ([]link.OutboxMessage, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.open || g.led == nil {
		return nil, nil
	}
	return outbox.Of(g.led).Pending(limit)
}

func (g *gatedOutbox) Ack(id int64) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.led == nil {
		return errNoLedger
	}
	return g.led.Ack(id)
}

// CreditMeters keeps the ledger's role as the link's link.CreditSource.
func (g *gatedOutbox) CreditMeters() (link.CreditMeters, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.led == nil {
		return link.CreditMeters{}, errNoLedger
	}
	return outbox.Of(g.led).(link.CreditSource).CreditMeters()
}

type centralEvent struct {
	seq        int64
	kind, text string
}

func centralEvents(t *testing.T, r *rig) []centralEvent {
	t.Helper()
	rows, err := r.central.Server.DB().Query(`SELECT seq, kind, text FROM events WHERE cabinet = 'cab-1' ORDER BY rowid`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []centralEvent
	for rows.Next() {
		var e centralEvent
		if err := rows.Scan(&e.seq, &e.kind, &e.text); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

// Check 13, event log and offline queue: with the link down the cabinet
// keeps logging (doors, keys, acceptor and printer faults, link loss, a
// power cycle) — more than 500 events — into the ledger outbox, in order,
// and none reaches the central system; when the link is back every event
// of the ledger reaches the central store once, in order, none lost or
// duplicated, and the outbox is empty.
func TestCheck13EventsQueuedOfflineReachCentralOnce(t *testing.T) {
	dir := t.TempDir()
	r := &rig{t: t, dir: dir, clock: clocktest.New(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)), eventsOut: true}
	gate := &gatedOutbox{}
	var err error
	r.central, err = embedded.Start(context.Background(), embedded.Options{DataDir: dir, Cabinet: "cab-1", Games: engine.Games(), Outbox: gate, NoJackpot: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.central.Close() })
	r.start("demo")
	t.Cleanup(func() { gate.set(nil, false) }) // runs before the rig closes the ledger
	gate.set(r.led, true)
	r.idle()
	drained := func(*view.Snapshot) bool { p, err := r.led.Pending(1); return err == nil && len(p) == 0 }
	r.until("start-up events delivered", 10*time.Millisecond, func(s *view.Snapshot) bool {
		c := centralEvents(t, r)
		return drained(s) && len(c) > 0 && c[len(c)-1].seq == int64(r.lastEventSeq())
	})
	online := r.lastEventSeq()

	// The link goes down.
	gate.set(r.led, false)
	r.cab.Post(LinkState{Up: false})
	offline := func(n int) {
		for _, d := range []deck.Door{deck.Main, deck.Logic, deck.Cashbox} {
			r.cab.Post(Door{Name: d, Open: true})
			r.cab.Post(Door{Name: d, Open: false})
		}
		r.cab.Post(AcceptorEvent{acceptor.Fault{Kind: acceptor.StackerFull}})
		r.cab.Post(AcceptorEvent{acceptor.FaultCleared{Kind: acceptor.StackerFull}})
		r.cab.Post(PrinterEvent{printer.FaultSet{Fault: printer.PaperOut}})
		r.cab.Post(PrinterEvent{printer.FaultCleared{Fault: printer.PaperOut}})
		for i := 0; i < n; i++ {
			r.cab.Post(Key{Name: deck.Attendant, On: true})
			r.cab.Post(Key{Name: deck.Attendant, On: false})
		}
		r.cab.Do(func() {})
	}
	offline(300)
	r.until("out of service", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeOutOfService })

	// A power cycle while offline.
	gate.set(nil, false)
	r.powerCut()
	r.start("demo")
	gate.set(r.led, false)
	r.cab.Post(LinkState{Up: false})
	offline(220)
	r.until("out of service", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeOutOfService })

	logged := r.eventsSince(online)
	if len(logged) < 500 {
		t.Fatalf("check 13: only %d events logged offline", len(logged))
	}
	kinds := map[string]int{}
	for _, e := range logged {
		kinds[e.Kind]++
	}
	for _, k := range []string{ledger.EventDoorOpen, ledger.EventPowerUp, "tilt", "tilt_cleared", "link", "key"} {
		if kinds[k] == 0 {
			t.Fatalf("check 13: no %q event logged offline: %v", k, kinds)
		}
	}
	pending, err := r.led.Pending(100000)
	if err != nil {
		t.Fatal(err)
	}
	nEvents := 0
	for i, m := range pending {
		if i > 0 && m.ID <= pending[i-1].ID {
			t.Fatalf("check 13: outbox out of order at %d", i)
		}
		if m.Kind == link.KindEvents {
			nEvents++
		}
	}
	if nEvents != len(logged) {
		t.Fatalf("check 13: %d events logged offline, %d event messages queued", len(logged), nEvents)
	}
	if c := centralEvents(t, r); len(c) == 0 || c[len(c)-1].seq != int64(online) {
		t.Fatal("check 13: events reached the central system while the link was down")
	}

	// The link is back.
	gate.set(r.led, true)
	r.cab.Post(LinkState{Up: true})
	r.idle()
	r.until("outbox drained", 10*time.Millisecond, drained)

	all := r.eventsSince(0)
	got := centralEvents(t, r)
	if len(got) != len(all) {
		t.Fatalf("check 13: ledger logged %d events, central stored %d", len(all), len(got))
	}
	for i, e := range all {
		g := got[i]
		if g.seq != int64(e.Seq) || g.kind != e.Kind {
			t.Fatalf("check 13: central event %d is #%d %s, ledger has #%d %s", i, g.seq, g.kind, e.Seq, e.Kind)
		}
	}
}
