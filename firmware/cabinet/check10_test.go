package cabinet

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/clock/clocktest"
	"github.com/polaris-vlt/polaris/deck"
	"github.com/polaris-vlt/polaris/firmware/health"
	"github.com/polaris-vlt/polaris/firmware/outbox"
	"github.com/polaris-vlt/polaris/firmware/verify"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// signedTree lays out an installed binary and model under a scratch root
// with their signed manifest; it returns the binary's path and the check
// the start-up gate hands the cabinet (cmd/internal/boot).
func signedTree(t *testing.T) (binary string, check func(context.Context) error) {
	t.Helper()
	root := t.TempDir()
	files := map[string][]byte{
		"usr/bin/polaris":                        bytes.Repeat([]byte("\x7fELF binary "), 1000),
		"usr/share/polaris/models/wishstar.json": []byte(`{"game":"wishstar"}`),
	}
	for p, b := range files {
		full := filepath.Join(root, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	mdir := filepath.Join(root, "usr/share/polaris")
	m, err := verify.Build(root, mdir, "1.0.0", []verify.Entry{
		{Kind: verify.KindBinary, Path: "usr/bin/polaris"},
		{Kind: verify.KindModel, Path: "usr/share/polaris/models/wishstar.json"},
	})
	if err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(mdir, "MANIFEST")
	if err := os.WriteFile(manifest, m.Sign(priv), 0o644); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, "usr/bin/polaris"), func(context.Context) error { return verify.Check(manifest, pub) }
}

// Check 10: the self-tests (the software's digests against its signed
// manifest, the critical memory's two copies, the devices' presence) run
// at start-up, before any game or money — a start-up run still going
// refuses both — and again every 24 h on the cabinet's clock, not before.
// One byte changed in the installed binary between two runs is found by
// the next: a malfunction tilt with the failed test named, play, cash-out
// and money in refused, the event logged and queued for the central
// system; it survives a power cut; with the binary restored, the
// technician's key clears it and the cabinet plays.
func TestCheck10SelfTestsAtStartAndEvery24h(t *testing.T) {
	binary, software := signedTree(t)
	var runs atomic.Int64
	gate := make(chan struct{})
	close(gate)
	var gateNow atomic.Pointer[chan struct{}]
	gateNow.Store(&gate)
	withSelfTests := func(c *Config) {
		c.Software.SelfTests = []health.SelfTest{{Name: "software", Run: func(ctx context.Context) error {
			runs.Add(1)
			select {
			case <-*gateNow.Load():
			case <-ctx.Done():
				return ctx.Err()
			}
			return software(ctx)
		}}}
	}
	r := &rig{t: t, dir: t.TempDir(), clock: clocktest.New(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)), eventsOut: true}
	r.start("demo", withSelfTests)
	r.idle()
	if runs.Load() != 1 {
		t.Fatalf("%d self-test runs at start-up", runs.Load())
	}
	r.insertNote(2000, 2)

	// A power-up whose self-tests have not reported: no game, no money.
	r.powerCut()
	held := make(chan struct{})
	gateNow.Store(&held)
	defer func() {
		select {
		case <-held:
		default:
			close(held)
		}
	}()
	r.start("demo", withSelfTests)
	poll.Until(t, 10*time.Second, "the start-up self-test", func() bool { return runs.Load() == 2 }, func() string { return "" })
	if m := r.cab.View().Mode; m != view.ModeStarting {
		t.Fatalf("mode %s while the start-up self-tests run", m)
	}
	r.blockedFor("check 10 while the start-up self-tests run")
	close(held)
	r.idle()
	r.settleRound(r.playOne())

	// Every 24 h on the cabinet's clock, not before.
	r.clock.Advance(24*time.Hour - time.Minute)
	r.ticked() // a self-test due would have begun in this tick, on the loop
	var running bool
	r.cab.Do(func() { running = r.cab.selfTest.running })
	if running || runs.Load() != 2 {
		t.Fatalf("a self-test ran %d times before 24 h", runs.Load()-2)
	}
	r.clock.Advance(time.Minute)
	poll.Until(t, 10*time.Second, "the self-test after 24 h", func() bool { return runs.Load() == 3 }, func() string { return "" })
	r.idle()

	// One byte of the binary changed: the next run's malfunction.
	good, _ := os.ReadFile(binary)
	bad := bytes.Clone(good)
	bad[100] ^= 1
	os.WriteFile(binary, bad, 0o755)
	seq := r.lastEventSeq()
	r.clock.Advance(24 * time.Hour)
	s := r.until("self-test tilt", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeTilt })
	if len(s.Tilts) != 1 || !strings.HasPrefix(s.Tilts[0], "SELF-TEST FAILED: software: ") || !strings.Contains(s.Tilts[0], "usr/bin/polaris") {
		t.Fatalf("tilts %q", s.Tilts)
	}
	r.blockedFor("check 10 after a failed self-test")
	logged := false
	for _, e := range r.eventsSince(seq) {
		logged = logged || (e.Kind == "tilt" && e.Source == tiltSelfTest && strings.Contains(e.Text, "software"))
	}
	if !logged {
		t.Fatal("the failed self-test was not logged")
	}
	msgs, err := outbox.Of(r.led).Pending(1000)
	if err != nil {
		t.Fatal(err)
	}
	reported := false
	for _, m := range msgs {
		reported = reported || bytes.Contains(m.Payload, []byte("SELF-TEST FAILED"))
	}
	if !reported {
		t.Fatal("the failed self-test was not queued for the central system")
	}
	r.powerCut()
	r.start("demo", withSelfTests)
	r.until("self-test tilt after a power cut", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeTilt })
	r.blockedFor("check 10 after a power cut")

	// Repaired: the technician's key clears it.
	os.WriteFile(binary, good, 0o755)
	r.cab.Post(Key{Name: deck.Technician, On: true})
	r.cab.Post(Key{Name: deck.Technician, On: false})
	r.idle()
	r.settleRound(r.playOne())
}
