// Package view holds the immutable snapshots the cabinet publishes and the
// display draws. A snapshot is never changed after it is published; the
// display animates between the timestamps it carries and sends back
// nothing but inputs.
package view

import (
	"time"

	"github.com/polaris-vlt/polaris/deck"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/money"
)

// Mode is what the cabinet screen shows, most important first when several
// conditions hold at once.
type Mode string

const (
	ModeStarting     Mode = "starting"       // self-test, device start-up
	ModeRAMError     Mode = "ram_error"      // critical memory failed: technician only
	ModeSoftware     Mode = "software_error" // software verification failed
	ModeDoorOpen     Mode = "door_open"
	ModeTilt         Mode = "tilt"
	ModeLockup       Mode = "lockup"         // handpay or jackpot: call the attendant
	ModeMenu         Mode = "menu"           // technician or attendant pages
	ModeOutOfService Mode = "out_of_service" // the central link is down
	ModeDisabled     Mode = "disabled"       // the central system disabled the cabinet
	ModeIdle         Mode = "idle"           // ready to play
	ModeAttract      Mode = "attract"        // idle with no credit for a while
	ModeWagering     Mode = "wagering"       // waiting for the central system
	ModePresenting   Mode = "presenting"     // reels spinning, wins shown
	ModeRisk         Mode = "risk"           // red/black double-up (MS-9, MS-10)
	ModeCashout      Mode = "cashout"        // a voucher is being issued and printed
	ModeBreak        Mode = "break"          // the player's break: information only (check 36)
	ModeInfo         Mode = "info"           // the player's information pages (pay table, rules, RTP)
)

// Button is a button of the deck, as package deck names it; the snapshot
// repeats the names so that the display reads them from the view alone.
type Button = deck.Button

const (
	Start    = deck.Start
	Auto     = deck.Auto
	Risk     = deck.Risk
	Stop     = deck.Stop
	BetPlus  = deck.BetPlus
	BetMinus = deck.BetMinus
	Collect  = deck.Collect
	// InfoButton opens the player's information pages (no lamp).
	InfoButton = deck.Info
)

// Buttons lists every deck button in deck order.
var Buttons = deck.Buttons

// Lamp is a lamp's pattern.
type Lamp string

const (
	LampOff   Lamp = "off"
	LampOn    Lamp = "on"
	LampBlink Lamp = "blink"
)

// StepTime places one step of a round on the clock: the reels start at
// Start, reel i stops at Stops[i], wins are shown from Wins, the step ends at End.
type StepTime struct {
	Start time.Time
	Stops [5]time.Time
	Wins  time.Time
	End   time.Time
	// Celebrate is when a jackpot won in this step is celebrated (its tier
	// and amount over the reels) until Banner or End; zero for none.
	Celebrate time.Time
	// Banner is when this step's feature screen shows until End: the
	// intro of the free spins or Lock & Spin it triggers, or the total
	// of the feature it ends; zero for none.
	Banner time.Time
}

// Round is the round being presented.
type Round struct {
	Number   uint64
	Game     engine.GameID
	Stake    engine.Money
	Steps    []engine.Step // shared with the cabinet, never modified
	Timeline []StepTime    // one per step
	Total    engine.Money
	// Jackpot is a progressive hit (Magic Stars, MS-18), never credited.
	Jackpot engine.Money
}

// RiskView is the Risk screen (MS-10).
type RiskView struct {
	Step     int          // steps played so far
	Win      engine.Money // the amount at stake now
	Last     *engine.RiskStep
	History  []engine.RiskStep
	CanRed   bool
	CanLeave bool // Collect or Start may end Risk (after at least one step, MS-9)
	// ShowUntil keeps a lost card on screen after the round settled (the
	// cabinet is idle again: Start plays on at once).
	ShowUntil time.Time
}

// Jackpot is one jackpot meter.
type Jackpot struct {
	Name   string // "mini", "minor", "major", "grand", or a pool name
	Game   engine.GameID
	Amount engine.Money
	// Stake is the stake a fixed jackpot's amount belongs to (WS-10 pays
	// multiples of the stake); 0 for a progressive pool.
	Stake engine.Money
}

// Lockup says why an attendant is needed.
type Lockup struct {
	Kind   string // "handpay_win", "handpay_jackpot", "handpay_cancelled_credit"
	Amount engine.Money
}

// MenuLines is how many lines a menu page holds: the display draws them
// all; the firmware pages a longer list (check 12).
const MenuLines = 32

// MenuPage is a page of the technician or attendant menu.
type MenuPage struct {
	Title string
	Lines []MenuLine
	// Recall is set on a game recall page (check 11): the display draws
	// the game's symbols and amounts from it, in the player's language.
	Recall *Recall
	// Page and Pages: this page's place in the menu (1-based).
	Page, Pages int
	// Hint is the catalogue key of the footer, set while the deck's
	// buttons do something else than page (a digit or a setting being
	// entered): the footer says what they do. "" is the usual paging hint.
	Hint string
}

// Recall is one past game as the recall page shows it: its amounts, its
// final screen, and one of its steps (a base spin, a free spin, a Lock &
// Spin respin, a bonus win reveal, or a Risk step), paged one at a time.
type Recall struct {
	Index, Count int // this game, 0 the newest, of Count kept
	Number       uint64
	Game         engine.GameID
	Status       string // "settled", "refunded"
	Ended        time.Time
	Bet, Win     engine.Money // stake; the game's win before Risk
	CreditBefore engine.Money // before the wager
	CreditAfter  engine.Money // after the settlement
	Paid         engine.Money // to the credit meter, after Risk
	Handpay      engine.Money // a large win paid by the attendant
	Jackpot      engine.Money // a progressive hit (never credited)
	CashOut      engine.Money // vouchers and cancelled credit paid out after this game, before the next
	// Final is the game's last screen (the outcome); nil when it had none.
	Final *engine.Step
	// Step is the step on this page (0-based) of Steps: the game's steps,
	// then its Risk steps. StepGame is that step when it is a game step,
	// StepRisk when it is a Risk step.
	Step, Steps int
	StepGame    *engine.Step
	StepRisk    *engine.RiskStep
	// Problem says why the outcome could not be shown (it failed its
	// signature or mirror check): the amounts are still the ledger's.
	Problem string
}

// Snapshot is everything the screen shows at one instant.
type Snapshot struct {
	Seq      uint64
	Now      time.Time
	Mode     Mode
	Market   string
	Language string
	Currency money.Currency

	Games []engine.GameID // offered by the market
	Game  engine.GameID   // selected
	Bets  []engine.Money  // the selected game's ladder
	Bet   engine.Money
	// Credit and Win as the player should see them now.
	Credit engine.Money
	Win    engine.Money
	Auto   bool

	// Round is the round on screen; nil before the first one. After the
	// round ends it stays, showing its last screen.
	Round *Round
	// RiskOffer: the last win may be gambled with Risk (MS-9).
	RiskOffer bool
	Risk      *RiskView

	Jackpots []Jackpot
	Lockup   *Lockup
	Tilts    []string // reasons of active tilts, in the firmware's words (logs, tests)
	// TiltKinds is the kind of each of Tilts, in order ("acceptor",
	// "printer", "outcome", …): the display names it in the screen's
	// language ("tilt.<kind>") above the firmware's detail.
	TiltKinds []string
	// TiltLines is each of Tilts as a catalogue line, in order; one with
	// no Key is shown in the firmware's words.
	TiltLines []MenuLine
	Doors     []string // open doors
	Message   string   // catalogue key of the status line
	// MessageAmount goes with Message where it names an amount (a voucher
	// printed, a handpay paid: check 33).
	MessageAmount engine.Money
	Menu          *MenuPage

	Lamps map[Button]Lamp
	Tower string // tower light pattern: "off", "call", "tilt", "door"

	// Sound is what the speaker may do now (display/sound plays it).
	Sound Sound
	// Info is the player's information page on screen (ModeInfo), else nil.
	Info *Info
	// Player is the logged-in player's limits and break, else nil.
	Player *Player
	// CountUp is the last settled win counting up (nil: none since the
	// last round started).
	CountUp *CountUp
}

// Player is what the screen shows of the player logged in with a card:
// the limits with what is left, and the break.
type Player struct {
	Name   string
	Limits []PlayerLimit
	// BreakWarning: the break comes soon (BreakAt); InBreak: it holds
	// until BreakUntil, no new game; BreakCredit is the market's rule for
	// the credit meanwhile ("keep" or "payout").
	BreakWarning bool
	InBreak      bool
	BreakAt      time.Time
	BreakUntil   time.Time
	BreakCredit  string
}

// PlayerLimit is one self-limit: Kind bets_day, bets_month, loss_day or
// loss_month; a limit the player refused has Set false.
type PlayerLimit struct {
	Kind         string
	Set          bool
	Amount, Left engine.Money
}

// Sound is the cabinet's say over the speaker: the volume, and when it
// must stay silent. What plays is the display's (display/sound), from
// the changes between snapshots.
type Sound struct {
	// Volume 0..100: the market's default until the technician sets it.
	Volume int
	// AttractSilent: the market forbids sound while the cabinet attracts.
	AttractSilent bool
	// Muted: test mode; nothing plays but the sound test.
	Muted bool
	// Test is the sound test's cue name (test mode), TestSeq counts the
	// presses so that the same cue plays again.
	Test    string
	TestSeq uint64
}

// Info is the player's information screens (ModeInfo): which page of the
// game's InfoPages is shown, and the figures the pages state, all at the
// stake the player has chosen.
type Info struct {
	Page  int // index into InfoPages(Game)
	Game  engine.GameID
	Stake engine.Money
	// RTP is the exact theoretical return at Stake (the PAR sheet's
	// calculation, engine/par); RTPKnown false when it could not be had.
	RTP      float64
	RTPKnown bool
	// MaxWin is the most one round can pay at Stake.
	MaxWin engine.Money
	// The market's wording: its helpline, the minimum age, and whether
	// the RTP page says it is not the chance of the next game (Austria).
	Helpline string
	MinAge   int
	RTPNote  bool
}

// Attract says whether the screen attracts players: the attract mode, or
// idle with no credit and no round on screen yet.
func (s *Snapshot) Attract() bool {
	return s.Mode == ModeAttract || s.Mode == ModeIdle && s.Credit == 0 && s.Round == nil
}
