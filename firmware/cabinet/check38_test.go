package cabinet

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/embedded"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/clock"
	"github.com/polaris-vlt/polaris/clock/clocktest"
	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// Check 38: the cabinet's clock follows the central system's. The central
// system (real gRPC over mutual TLS on loopback) runs 90 s ahead of the
// cabinet's local clock. Its Hello, as the link receives it at the
// connection, steps the cabinet's clock.Disciplined to the central time,
// and the step is logged (time_change, old and new). From then on the
// voucher printed, the round recall keeps and the events are stamped
// within clock.DefaultTolerance of the central time. A TIME command within
// the tolerance changes nothing; one 30 s back steps back and is logged,
// while the timers and the presentation timeline stay on the local clock,
// and events keep their order: the sequence number and the time since the
// power-up never go back, only the wall time does.
func TestCheck38ClockFollowsCentral(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	f := clocktest.New(t0)
	disc := clock.NewDisciplined(f, clock.DefaultTolerance)
	tol := disc.Tolerance()
	var ahead atomic.Int64
	ahead.Store(int64(90 * time.Second))
	central := func() time.Time { return f.Now().Add(time.Duration(ahead.Load())) }

	r := &rig{t: t, dir: t.TempDir(), clock: f, outbox: &gatedOutbox{}, ledgerClock: disc}
	var err error
	r.central, err = embedded.Start(context.Background(), embedded.Options{DataDir: r.dir, Cabinet: "cab-1",
		Games: engine.Games(), Outbox: r.outbox, NoJackpot: true, Now: central, LinkClock: f})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.central.Close() })
	r.start("demo", func(c *Config) { c.Clock = disc })
	r.idle()
	before := r.led.Events(1)[0]
	if d := central().Sub(before.Wall); d < 90*time.Second-tol {
		t.Fatalf("before the first Hello the ledger stamps %v, central %v: not the local time", before.Wall, central())
	}

	// What firmware/app does with every notice (followCentralTime).
	var seen atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for {
			select {
			case n := <-r.central.Client.Notices():
				if off, ok := link.CentralOffset(n, f); ok {
					if s, ok := disc.Follow(off); ok {
						r.cab.Post(TimeChanged{Step: s})
					}
					seen.Add(1)
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	changes := func(n int) []timeChange {
		t.Helper()
		var out []timeChange
		poll.Until(t, 10*time.Second, "time_change events", func() bool {
			out = nil
			for _, e := range r.eventsSince(before.Seq) {
				if e.Kind == EventTimeChange {
					var tc timeChange
					if err := json.Unmarshal(e.Data, &tc); err != nil {
						t.Fatal(err)
					}
					out = append(out, tc)
				}
			}
			return len(out) >= n
		}, func() string { return "" })
		return out
	}
	tc := changes(1)[0]
	if by := tc.New.Sub(tc.Old); by < 90*time.Second-tol || by > 90*time.Second+tol {
		t.Fatalf("the step at Hello: %v -> %v (%v), want +90 s", tc.Old, tc.New, by)
	}
	within := func(what string, at, lo, hi time.Time) {
		t.Helper()
		if at.Before(lo.Add(-tol)) || at.After(hi.Add(tol)) {
			t.Fatalf("%s stamped %v, central time %v .. %v, tolerance %v", what, at, lo, hi, tol)
		}
	}
	within("the cabinet's time", disc.Now(), central(), central())
	// The measurement itself, over the wire: to the middle of its round trip.
	info, err := r.central.Client.Hello(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := info.Offset - 90*time.Second; d < -info.RTT/2 || d > info.RTT/2 {
		t.Fatalf("Hello's offset %v, RTT %v: want 90 s", info.Offset, info.RTT)
	}

	// A round, a voucher and the events of both: in central time.
	from := central()
	r.insertNote(2000, 2)
	played := r.playOne()
	// The presentation and the timers stay on the local clock, which the
	// display animates against: a step does not move a round on screen.
	if end := played.Round.Timeline[len(played.Round.Timeline)-1].End; end.After(f.Now()) || f.Now().Sub(end) > time.Minute {
		t.Fatalf("the round's timeline ends %v, the local clock reads %v", end, f.Now())
	}
	r.settleRound(played)
	r.press(view.Collect)
	r.until("cashed out", time.Millisecond, func(s *view.Snapshot) bool { return s.Credit == 0 && s.Mode == view.ModeIdle })
	to := central()
	if len(r.prn.Printed) != 1 {
		t.Fatalf("printed %d documents", len(r.prn.Printed))
	}
	within("the voucher", r.prn.Printed[0].(document.Voucher).Issued, from, to)
	rd := r.led.Recall(1)[0]
	for _, j := range rd.Journal {
		within("recall's "+j.Kind, j.Wall, from, to)
	}
	for _, e := range r.eventsSince(before.Seq) {
		if e.Kind != EventTimeChange {
			within("event "+e.Kind, e.Wall, from, to)
		}
	}
	for _, d := range r.led.DocsOut() {
		within("the voucher's history", d.Done, from, to)
	}

	// Within the tolerance: no step, no event.
	ahead.Add(int64(tol / 2))
	n := seen.Load()
	r.central.Server.Links().SendTime()
	poll.Until(t, 10*time.Second, "the TIME command", func() bool { return seen.Load() > n }, func() string { return "" })
	if len(changes(1)) != 1 {
		t.Fatal("a difference within the tolerance was stepped")
	}
	// 30 s back: stepped back and logged.
	ahead.Store(int64(60 * time.Second))
	last := r.led.Events(1)[0]
	r.central.Server.Links().SendTime()
	tc = changes(2)[1]
	if by := tc.New.Sub(tc.Old); by > -30*time.Second+tol || by < -30*time.Second-2*tol {
		t.Fatalf("the step back: %v -> %v (%v), want -30.5 s", tc.Old, tc.New, by)
	}
	r.cab.Post(Door{Name: "main", Open: true})
	r.cab.Post(Door{Name: "main", Open: false})
	poll.Until(t, 10*time.Second, "door events", func() bool { return r.led.Events(1)[0].Kind == ledger.EventDoorClose }, func() string { return "" })
	after := r.led.Events(1)[0]
	within("the door event after the step back", after.Wall, central(), central())
	if !after.Wall.Before(last.Wall) {
		t.Fatalf("the wall time did not go back: %v after %v", after.Wall, last.Wall)
	}
	// The order: sequence and the time since the power-up never go back.
	es := r.eventsSince(0)
	for i := 1; i < len(es); i++ {
		p, e := es[i-1], es[i]
		if e.Seq <= p.Seq || (e.PowerUp == p.PowerUp && e.Mono < p.Mono) {
			t.Fatalf("event order went back: %d %s (mono %v) after %d %s (mono %v)", e.Seq, e.Kind, e.Mono, p.Seq, p.Kind, p.Mono)
		}
	}
}
