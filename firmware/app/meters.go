package app

import (
	"github.com/polaris-vlt/polaris/drivers/gpio"
	"github.com/polaris-vlt/polaris/firmware/ledger"
)

// hardMeters derives what the electromechanical meters are owed from the
// ledger's soft meters, which are committed with each money step: owed =
// soft value in meter units − units pulsed. A power cut therefore never
// loses a count; pulses are recorded after each one.
type hardMeters struct {
	led  *ledger.Ledger
	unit int64 // minor units per meter click (one major unit)
}

func (h *hardMeters) soft(m gpio.Meter) int64 {
	ms, _ := h.led.Meters(ledger.ScopeCabinet)
	switch m {
	case gpio.MeterIn:
		return (ms[ledger.BillsInValue] + ms[ledger.TicketsInValue]) / h.unit
	case gpio.MeterOut:
		return (ms[ledger.TicketsOutValue] + ms[ledger.HandpayCancelledCredit]) / h.unit
	case gpio.MeterDrop:
		return ms[ledger.TotalDrop] / h.unit
	case gpio.MeterJackpot:
		return (ms[ledger.HandpayWin] + ms[ledger.JackpotAttendant]) / h.unit
	case gpio.MeterGames:
		return ms[ledger.GamesPlayed]
	}
	return 0
}

func (h *hardMeters) pulsed(m gpio.Meter) int64 { return h.led.HardMeterPulses(string(m)) }

// Owed implements gpio.MeterStore.
func (h *hardMeters) Owed(m gpio.Meter) (int64, error) {
	if len(h.led.Faults()) > 0 {
		// A pulse now could not be recorded (a ledger copy refuses every
		// write) and would be pulsed again after the repair.
		return 0, nil
	}
	owed := h.soft(m) - h.pulsed(m)
	if owed < 0 { // a RAM clear reset the soft meters
		owed = 0
	}
	return owed, nil
}

// Pulsed implements gpio.MeterStore. The GPIO goroutine is the one writer
// of the pulses (firmware/ledger/README.md, who writes).
func (h *hardMeters) Pulsed(m gpio.Meter, n int64) error {
	return h.led.HardMeterPulsed(string(m), n)
}
