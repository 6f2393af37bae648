// Package poll is the tests' one way to wait for what another goroutine,
// a device emulator or a process makes true: ask again every few
// milliseconds until it holds, or fail the test naming what never came.
// Timing here is a deadline for a broken case only; a test never measures
// speed with it (speed is measured with go test -bench).
package poll

import (
	"testing"
	"time"
)

// Every is how often Until asks: often enough for a state that lasts a few
// milliseconds (a document log's last line while the paper moves), and for
// a test rig that moves a fake clock one step per ask.
const Every = time.Millisecond

// Until asks ok every Every until it holds. When within passes first it
// fails t: "waited <within> in vain for <what>", and detail's line when
// given (the state the test saw last).
func Until(t testing.TB, within time.Duration, what string, ok func() bool, detail ...func() string) {
	t.Helper()
	for deadline := time.Now().Add(within); !ok(); time.Sleep(Every) {
		if time.Now().After(deadline) {
			msg := "waited " + within.String() + " in vain for " + what
			for _, d := range detail {
				msg += ": " + d()
			}
			t.Fatal(msg)
		}
	}
}
