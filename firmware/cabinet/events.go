package cabinet

import (
	"time"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/deck"
	"github.com/polaris-vlt/polaris/drivers/acceptor"
	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// Event is anything the cabinet loop handles. Inputs come from the board,
// the display and the devices; replies come from the cabinet's own calls to
// the central system and the devices, which run off the loop.
type Event interface{ event() }

// Press is a deck button pressed.
type Press struct{ Button view.Button }

// SelectGame asks for another game where the market offers several.
type SelectGame struct{ Game engine.GameID }

// Key is a key switch turned on or off: deck.Attendant (jackpot reset) or
// deck.Technician.
type Key struct {
	Name deck.Key
	On   bool
}

// Door is a door opened or closed (deck.Doors).
type Door struct {
	Name deck.Door
	Open bool
}

// Tick lets timers run; the loop posts one every few milliseconds.
type Tick struct{}

// AcceptorEvent is an event of the bill/ticket acceptor driver.
type AcceptorEvent struct{ E acceptor.Event }

// PrinterEvent is an event of the printer driver.
type PrinterEvent struct{ E printer.Event }

// LinkState is the central link going up or down.
type LinkState struct{ Up bool }

// StorageHealth is the free space left where the ledger's copies are
// (the least of them), or why it could not be read.
type StorageHealth struct {
	Free int64 // bytes
	Err  error
}

// JackpotValues are jackpot meters sent by the central system: every game's,
// fixed ones once per stake; the snapshot shows those of the game and bet
// on screen.
type JackpotValues struct{ Values []view.Jackpot }

// CentralCommand is a command of the central system: "disable", "enable".
type CentralCommand struct {
	Command string
	Reason  string
}

// PowerOff asks the loop to stop as if the power were cut: nothing more is
// journaled. (Tests and the scenario runner use it; a real cut just stops.)
type PowerOff struct{}

type outcomeReply struct {
	round   uint64
	outcome *link.Outcome
	err     error
}

type riskReply struct {
	round uint64
	step  int
	card  *link.RiskCard
	err   error
}

type voucherReply struct {
	doc     uint64
	voucher *link.Voucher
	err     error
}

type printReply struct {
	doc uint64
	job printer.JobID
	err error
}

type redeemReply struct {
	doc    uint64
	number string
	hold   *link.Hold
	err    error
}

// hookCall is a device driver's hook handed to the loop: the driver waits
// for the journal's commit before it answers its device.
type hookCall struct {
	fn   func() error
	done chan error
}

// deviceDone reports a device command that failed.
type deviceDone struct {
	what string
	err  error
}

type call struct {
	fn   func()
	done chan struct{}
}

func (Press) event()          {}
func (SelectGame) event()     {}
func (Key) event()            {}
func (Door) event()           {}
func (Tick) event()           {}
func (AcceptorEvent) event()  {}
func (PrinterEvent) event()   {}
func (LinkState) event()      {}
func (JackpotValues) event()  {}
func (CentralCommand) event() {}
func (PowerOff) event()       {}
func (outcomeReply) event()   {}
func (riskReply) event()      {}
func (voucherReply) event()   {}
func (printReply) event()     {}
func (redeemReply) event()    {}
func (hookCall) event()       {}
func (StorageHealth) event()  {}
func (deviceDone) event()     {}
func (call) event()           {}

// Timing is the presentation timeline. Zero values make presentation
// instant (benchmarks, the crash harness).
type Timing struct {
	Spin    time.Duration // from Start until the first reel stops
	ReelGap time.Duration // between reel stops
	PerWin  time.Duration // each win line or way shown
	// CountUp is how long a settled win counts up into the Win and
	// Credit fields below the big-win tiers; BigWin, MegaWin and SuperWin
	// are the tiers' (view.TierOf). The round is settled before it starts.
	CountUp  time.Duration
	FreeSpin time.Duration // a free spin or respin (shorter)
	BigWin   time.Duration
	MegaWin  time.Duration
	SuperWin time.Duration
	// FeatureIntro is the free spins' or Lock & Spin's intro screen,
	// FeatureTotal the total-win screen at a feature's end, Celebrate a
	// jackpot hit's celebration (before the handpay's lockup where one
	// follows): all on the round's timeline (view.StepTime).
	FeatureIntro time.Duration
	FeatureTotal time.Duration
	Celebrate    time.Duration
	// RiskOffer is how long Auto waits for Risk after a win before it
	// collects and plays on.
	RiskOffer time.Duration
}

// DefaultTiming is what a player sees.
var DefaultTiming = Timing{
	Spin:      1200 * time.Millisecond,
	ReelGap:   250 * time.Millisecond,
	PerWin:    700 * time.Millisecond,
	CountUp:   1200 * time.Millisecond,
	FreeSpin:  900 * time.Millisecond,
	RiskOffer: 1500 * time.Millisecond,
	BigWin:    4 * time.Second,
	MegaWin:   7 * time.Second,
	SuperWin:  10 * time.Second,

	FeatureIntro: 2500 * time.Millisecond,
	FeatureTotal: 3 * time.Second,
	Celebrate:    5 * time.Second,
}

// countUpFor is the count-up's length for a win of tier t.
func (tm Timing) countUpFor(t view.WinTier) time.Duration {
	switch t {
	case view.TierBig:
		return tm.BigWin
	case view.TierMega:
		return tm.MegaWin
	case view.TierSuper:
		return tm.SuperWin
	}
	return tm.CountUp
}
