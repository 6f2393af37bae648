package app

import (
	"github.com/polaris-vlt/polaris/drivers/gpio"
	"github.com/polaris-vlt/polaris/firmware/ledger"
)

// TestHardMeters is the hard meters' view of a ledger, for the external
// tests (package app_test, which use the devkit's parts).
type TestHardMeters struct{ h *hardMeters }

func NewTestHardMeters(l *ledger.Ledger, unit int64) TestHardMeters {
	return TestHardMeters{&hardMeters{led: l, unit: unit}}
}

func (t TestHardMeters) Pulsed(m gpio.Meter) int64        { return t.h.pulsed(m) }
func (t TestHardMeters) Owed(m gpio.Meter) (int64, error) { return t.h.Owed(m) }
