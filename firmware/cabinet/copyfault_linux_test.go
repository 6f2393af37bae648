package cabinet

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/clock/clocktest"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// Ledger copy A on a small file system that fills up while copy B is
// healthy: the wager is refused with a technician's tilt naming copy A,
// not a RAM error, and the credit stays; once space is freed the
// technician's key repairs the copy and play resumes with nothing lost.
func TestLedgerCopyFullIsATechniciansTilt(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a small tmpfs under ledger copy A (CI runs as root)")
	}
	dir := t.TempDir()
	a := filepath.Join(dir, "a")
	if err := os.MkdirAll(a, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", a, "tmpfs", 0, "size=16m,mode=0700"); err != nil {
		t.Fatalf("mount a tmpfs under copy A: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(a, syscall.MNT_DETACH) }) // after the rig's stop: cleanups run last first
	r := &rig{t: t, dir: dir, clock: clocktest.New(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))}
	r.start("demo")
	r.idle()
	r.insertNote(5000, 2)
	before := r.credit()
	played := r.meter(ledger.GamesPlayed)

	filler := filepath.Join(a, "filler")
	fill(t, filler)
	r.press(view.Start)
	s := r.until("copy A's tilt", time.Millisecond, func(s *view.Snapshot) bool {
		return slices.ContainsFunc(s.Tilts, func(t string) bool { return strings.HasPrefix(t, "ledger copy A ") })
	})
	if s.Mode == view.ModeRAMError || r.led.RAMError() != nil {
		t.Fatalf("a full copy A gave a RAM error: mode %s, %v", s.Mode, r.led.RAMError())
	}
	if r.credit() != before || r.meter(ledger.GamesPlayed) != played {
		t.Fatalf("credit %d games %d after the refused wager, want %d and %d", r.credit(), r.meter(ledger.GamesPlayed), before, played)
	}
	if fs := r.led.Faults(); len(fs) != 1 || fs[0].Copy != "A" {
		t.Fatalf("ledger faults %+v, want copy A", fs)
	}

	// The key while the medium is still full: the tilt stays.
	r.cab.Post(Key{Name: "technician", On: true})
	r.cab.Post(Key{Name: "technician", On: false})
	r.handled()
	if len(r.led.Faults()) != 1 || !slices.ContainsFunc(r.state().Tilts, func(t string) bool { return strings.HasPrefix(t, "ledger copy A ") }) {
		t.Fatalf("the key on a still-full copy ended the fault: tilts %v", r.state().Tilts)
	}

	// A restart during the fault opens on the good copy with the tilt
	// again; the power-up's record waits for the repair.
	powerUps := r.meter(ledger.PowerUps)
	r.stop()
	r.start("demo")
	r.until("copy A's tilt after the restart", time.Millisecond, func(s *view.Snapshot) bool {
		return slices.ContainsFunc(s.Tilts, func(t string) bool { return strings.HasPrefix(t, "ledger copy A ") })
	})
	if r.led.RAMError() != nil || r.credit() != before {
		t.Fatalf("after a restart in the fault: %v, credit %d want %d", r.led.RAMError(), r.credit(), before)
	}

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	r.cab.Post(Key{Name: "technician", On: true})
	r.cab.Post(Key{Name: "technician", On: false})
	r.until("repaired, idle", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeIdle && len(s.Tilts) == 0 })
	if fs := r.led.Faults(); len(fs) != 0 {
		t.Fatalf("faults after the repair: %+v", fs)
	}
	if n := r.meter(ledger.PowerUps); n != powerUps+1 {
		t.Fatalf("power-ups %d after the repair, want %d (the restart's, written once repaired)", n, powerUps+1)
	}
	s = r.settleRound(r.playOne())
	if r.meter(ledger.GamesPlayed) != played+1 {
		t.Fatalf("games played %d after the repair, want %d", r.meter(ledger.GamesPlayed), played+1)
	}
	if want := before - s.Bet + s.Round.Total; r.credit() != want {
		t.Fatalf("credit %d after a round, want %d − %d + %d", r.credit(), before, s.Bet, s.Round.Total)
	}
	if _, err := r.led.Verify("test"); err != nil {
		t.Fatalf("the copies after the repair and a round: %v", err)
	}
}

// fill writes zeros to path until the file system is full.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 1<<20)
	for {
		if _, err := f.Write(buf); err != nil {
			if errors.Is(err, syscall.ENOSPC) {
				return
			}
			t.Fatal(err)
		}
	}
}
