// Package boot is what the cabinet binaries (cmd/polaris, and
// cmd/polaris-devkit, which adds the devkit's parts) share: their profile
// and data flags, the start-up gate, and the window.
package boot

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/polaris-vlt/polaris/firmware/app"
	"github.com/polaris-vlt/polaris/firmware/health"
	"github.com/polaris-vlt/polaris/firmware/verify"
)

// Gate runs before any device or network traffic: the software is checked
// against its signed manifest (check 8) and its digest handed to the
// cabinet, which locks up when it differs from the last start's (check 9);
// the watchdog is fed only while every watched loop beats: the cabinet loop
// and each device loop (app registers them on o.Health), and the render
// loop under run (Window). A failed check does not exit — systemd would restart into
// a reboot loop — the cabinet shows the reason and refuses play and money.
// A developer's unsigned build runs with a warning and no program-change
// check (a rebuilt devkit would otherwise lock up at every start).
//
// The returned ready tells systemd (Type=notify) that start-up is over; the
// caller sends it once the cabinet runs (headless) or its first frame is on
// screen (run), so a start that hangs before then is caught by
// TimeoutStartSec=. Outside systemd it does nothing.
func Gate(ctx context.Context, o *app.Options) (ready func()) {
	m, err := verify.AtStart()
	switch {
	case err == nil:
		o.SoftwareID, o.SoftwareVersion = fmt.Sprintf("sha256:%x", m.Digest), m.Version
		o.SoftwareSeeded = func(seed []byte) ([]byte, [32]byte, error) {
			if seed == nil {
				// The cabinet binary links no random source (check 30), so
				// the default seed is the clock's, hashed with the manifest:
				// new at every request, but not secret. A lab brings its own
				// seed (Risk on the software page).
				sum := sha256.Sum256(fmt.Appendf(nil, "%d %x", time.Now().UnixNano(), m.Digest))
				seed = sum[:8] // 16 hex digits to read off the screen
			}
			_, all, err := m.Seeded(verify.RootDir(verify.DefaultManifest(), m), seed)
			return seed, all, err
		}
		// Verified again every 24 h in the background (check 10): a
		// component changed since the start tilts the cabinet.
		o.SelfTests = append(o.SelfTests, health.SelfTest{Name: "software", Run: func(context.Context) error {
			_, err := verify.AtStart()
			return err
		}})
	case errors.Is(err, verify.ErrUnsigned):
		fmt.Fprintf(os.Stderr, "%s: warning: unsigned development build, software verification skipped\n", filepath.Base(os.Args[0]))
		o.SoftwareVersion = "development build (unsigned)"
	default:
		log.Printf("%s: %v", filepath.Base(os.Args[0]), err)
		o.SoftwareError = err.Error()
	}
	o.Health = health.New(time.Now)
	if !health.RunSystemd(ctx, o.Health, log.Printf) {
		return func() {}
	}
	var once sync.Once
	return func() { once.Do(func() { health.Systemd{}.Notify(health.StateReady) }) }
}
