// Package poll is the tests' one way to wait for what another goroutine,
// a device emulator or a process makes true: ask again every few
// milliseconds until it holds, or fail the test naming what never came.
// Timing here is a deadline for a broken case only; a test never measures
// speed with it (speed is measured with go test -bench).
//
// Every deadline a test waits on goes through Scaled, so one environment
// variable stretches them all on a slow or loaded machine without editing a
// test: POLARIS_TEST_TIMEOUT_FACTOR (a positive number, default 1; make
// test-stress sets 3).
package poll

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"
	"time"
)

// Every is how often Until asks: often enough for a state that lasts a few
// milliseconds (a document log's last line while the paper moves), and for
// a test rig that moves a fake clock one step per ask.
const Every = time.Millisecond

// FactorEnv names the environment variable that multiplies every deadline.
const FactorEnv = "POLARIS_TEST_TIMEOUT_FACTOR"

// factor is read once: a test binary's deadlines do not change mid-run.
var factor = func() float64 {
	f, err := parseFactor(os.Getenv(FactorEnv))
	if err != nil {
		// A typo must not silently shorten or remove every deadline.
		panic(err)
	}
	return f
}()

func parseFactor(s string) (float64, error) {
	if s == "" {
		return 1, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f <= 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, fmt.Errorf("poll: %s=%q: want a positive number such as 1 or 2.5", FactorEnv, s)
	}
	return f, nil
}

// Factor is the deadline multiplier in force (POLARIS_TEST_TIMEOUT_FACTOR).
func Factor() float64 { return factor }

// Scaled is d stretched by the factor: the one way a test names a fixed
// wait for something that should happen (5 s for a reply, 30 s for a
// process), so a slow machine is accommodated by the environment.
func Scaled(d time.Duration) time.Duration {
	return time.Duration(float64(d) * factor)
}

// After is time.After(Scaled(d)), for a select that waits on a channel.
func After(d time.Duration) <-chan time.Time { return time.After(Scaled(d)) }

// Until asks ok every Every until it holds. When Scaled(within) passes
// first it fails t: "waited <within> in vain for <what>", and detail's line
// when given (the state the test saw last).
func Until(t testing.TB, within time.Duration, what string, ok func() bool, detail ...func() string) {
	t.Helper()
	within = Scaled(within)
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
