package cabinet

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/clock/clocktest"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// TestResumesASchema1Ledger: a cabinet powers up on a ledger written by
// the schema-1 code (resume state as untyped blobs; firmware/ledger
// testdata, made by that code): the ledger converts it once, and the
// cabinet resumes from it — the technician's tilt is shown again, the door
// open at power-off is reported closed while unpowered, the ticket left in
// escrow goes back, and every hold the central system had is settled.
func TestResumesASchema1Ledger(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []string{"a", "b"} {
		must(t, os.MkdirAll(filepath.Join(dir, c), 0o700))
		src, err := os.Open(filepath.Join("..", "ledger", "testdata", "schema1", c, ledger.DBName))
		must(t, err)
		dst, err := os.Create(filepath.Join(dir, c, ledger.DBName))
		must(t, err)
		_, err = io.Copy(dst, src)
		must(t, err)
		src.Close()
		must(t, dst.Close())
	}
	r := &rig{t: t, dir: dir, clock: clocktest.New(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))}
	r.start("cz")
	r.until("the technician's tilt again", time.Millisecond, func(s *view.Snapshot) bool {
		return slices.Contains(s.Tilts, "ticket stacked without validation")
	})
	seq := uint64(0)
	r.until("the holds settled and the door closed", 100*time.Millisecond, func(*view.Snapshot) bool {
		rs := r.led.Resume()
		return len(rs.Holds) == 0 && len(rs.Doors) == 0
	})
	if n := len(r.eventsOf(seq, "door_closed_unpowered")); n != 1 {
		t.Errorf("%d door_closed_unpowered events, want 1 (the main door open at power-off)", n)
	}
	if len(r.led.PendingDocs()) != 0 {
		t.Errorf("pending documents %+v, want the escrowed ticket returned", r.led.PendingDocs())
	}
	if c, _ := r.led.Credit(); c != 500 {
		t.Errorf("credit %d, want 500 (the one ticket stacked)", c)
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestTiltsAcrossAPowerCut: a tilt is kept with its event; after a power
// cut the technician's is shown again, and one whose condition the cabinet
// checks anew (low storage) is cleared in the ledger, said in the log.
func TestTiltsAcrossAPowerCut(t *testing.T) {
	r := newRig(t, "cz")
	r.idle()
	r.cab.Post(StorageHealth{Free: 1})
	r.until("storage tilt", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeTilt })
	if tl, ok := r.led.Resume().Tilts["storage"]; !ok || tl.Manual {
		t.Fatalf("storage tilt kept as %+v (%v)", tl, ok)
	}
	r.powerCut()
	r.start("cz")
	r.idle()
	if _, ok := r.led.Resume().Tilts["storage"]; ok {
		t.Fatal("the storage tilt is still kept after the power-up")
	}
	for _, e := range r.led.Events(20) {
		if e.Kind == "tilt_cleared" && strings.HasPrefix(e.Text, "not kept across the power cut: storage low") {
			return
		}
	}
	t.Fatalf("no tilt_cleared event in %+v", r.led.Events(10))
}
