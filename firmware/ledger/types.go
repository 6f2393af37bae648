package ledger

import "time"

// RoundStatus is where a round stands in its journal.
type RoundStatus string

// Round states, in order. A round is open until SETTLE or REFUND.
const (
	RoundWagered  RoundStatus = "wagered"
	RoundOutcome  RoundStatus = "outcome"
	RoundSettled  RoundStatus = "settled"
	RoundRefunded RoundStatus = "refunded"
)

// Journal entry kinds of a round.
const (
	JournalWager   = "WAGER"
	JournalOutcome = "OUTCOME"
	JournalRisk    = "RISK"
	JournalSettle  = "SETTLE"
	JournalRefund  = "REFUND"
)

// JournalEntry is one step of a round as it was committed.
type JournalEntry struct {
	Kind string    `json:"kind"`
	Seq  uint64    `json:"seq"` // ledger transaction that wrote it
	Wall time.Time `json:"wall"`
}

// Wager opens round Round: Stake is debited from the credit meter.
// Choices is opaque player input (bet per line, lines, …) kept for recall.
type Wager struct {
	Round   uint64 `json:"round"`
	Game    string `json:"game"`
	Denom   int64  `json:"denom"`
	Stake   int64  `json:"stake"`
	Choices []byte `json:"choices,omitempty"`
}

// RiskStep is one double-up step on the round's pending win: Stake of it is
// risked and Won (0 or more) comes back. Not coin in.
type RiskStep struct {
	Step    int    `json:"step"` // 1, 2, …
	Stake   int64  `json:"stake"`
	Won     int64  `json:"won"`
	Payload []byte `json:"payload,omitempty"` // the signed card, the choice
}

// Settlement ends a round: its pending win goes Credit to the credit meter
// and Handpay to an attendant handpay (Credit+Handpay = pending win).
// Jackpot is a progressive/mystery jackpot paid by attendant, never credited.
// Commit, when set, is queued in the outbox ("commit") in the same
// transaction.
type Settlement struct {
	Credit  int64  `json:"credit"`
	Handpay int64  `json:"handpay"`
	Jackpot int64  `json:"jackpot"`
	Payload []byte `json:"payload,omitempty"`
	Commit  []byte `json:"commit,omitempty"`
}

// Round is the journal of one game round and, once closed, its recall
// record: everything needed to show it again.
type Round struct {
	Number       uint64         `json:"number"`
	Game         string         `json:"game"`
	Denom        int64          `json:"denom"`
	Stake        int64          `json:"stake"`
	Status       RoundStatus    `json:"status"`
	CreditBefore int64          `json:"credit_before"` // before the wager
	CreditAfter  int64          `json:"credit_after"`  // after settle or refund
	Choices      []byte         `json:"choices,omitempty"`
	Outcome      []byte         `json:"outcome,omitempty"` // signed outcome body with its tape
	Win          int64          `json:"win"`               // game win from the outcome
	PendingWin   int64          `json:"pending_win"`       // after Risk steps, until settled
	Risk         []RiskStep     `json:"risk,omitempty"`
	Settlement   *Settlement    `json:"settlement,omitempty"`
	RefundReason string         `json:"refund_reason,omitempty"`
	HandpayIDs   []uint64       `json:"handpay_ids,omitempty"`
	Journal      []JournalEntry `json:"journal"`
}

// DocKind names a device document or a handpay.
type DocKind string

// Document kinds.
const (
	DocBill           DocKind = "bill"
	DocTicketIn       DocKind = "ticket_in"
	DocVoucher        DocKind = "voucher"
	DocHandpayWin     DocKind = "handpay_win"
	DocHandpayJackpot DocKind = "handpay_jackpot"
	DocHandpayCancel  DocKind = "handpay_cancelled_credit"
)

// Doc is a pending document: a note or ticket in escrow, a voucher being
// printed, a handpay waiting for the attendant.
type Doc struct {
	ID      uint64    `json:"id"`
	Kind    DocKind   `json:"kind"`
	Amount  int64     `json:"amount"`           // for tickets in: 0 until validated
	Number  string    `json:"number,omitempty"` // ticket or validation number
	Round   uint64    `json:"round,omitempty"`
	Game    string    `json:"game,omitempty"`
	Denom   int64     `json:"denom,omitempty"`
	Created time.Time `json:"created"`
}

// DocResult is how a document ended.
type DocResult string

// Document results.
const (
	DocStacked  DocResult = "stacked"
	DocReturned DocResult = "returned"
	DocPrinted  DocResult = "printed"
	DocFailed   DocResult = "failed"
	DocPaid     DocResult = "paid"
	DocCredited DocResult = "credited" // a large-win handpay put on the credit meter
)

// DocRecord is a finished document in the money-in/out history.
type DocRecord struct {
	Doc
	Result DocResult `json:"result"`
	Done   time.Time `json:"done"`
	By     string    `json:"by,omitempty"` // attendant for handpays
}

// MaskedNumber shows only the last 4 digits of a validation number (a full
// number of an unredeemed voucher must never be shown).
func (r DocRecord) MaskedNumber() string { return Mask(r.Number) }

// Mask hides all but the last 4 characters.
func Mask(n string) string {
	if len(n) <= 4 {
		return n
	}
	b := []byte(n)
	for i := 0; i < len(b)-4; i++ {
		b[i] = '*'
	}
	return string(b)
}

// Event kinds the ledger writes itself; the cabinet may use any others
// (tilt, link, device_fault, …).
const (
	EventPowerUp         = "power_up"
	EventDoorOpen        = "door_open"
	EventDoorClose       = "door_close"
	EventHandpay         = "handpay"
	EventConfigChange    = "config_change"
	EventRAMClear        = "ram_clear"
	EventCopyRebuilt     = "copy_rebuilt"
	EventInterrupted     = "interrupted_write"
	EventCopyFault       = "copy_fault"
	EventInvariantBroken = "invariant_broken"
	EventInvariantOK     = "invariant_restored"
)

// Event is one entry of the event log.
type Event struct {
	Seq     uint64        `json:"seq"`
	Wall    time.Time     `json:"wall"`
	Mono    time.Duration `json:"mono"`     // since this power-up
	PowerUp int64         `json:"power_up"` // power-up count when logged
	Kind    string        `json:"kind"`
	Source  string        `json:"source,omitempty"` // device, door, actor
	Text    string        `json:"text,omitempty"`
	Amount  int64         `json:"amount,omitempty"`
	Data    []byte        `json:"data,omitempty"`
}

// Limits of the kept history.
const (
	RecallKeep  = 100
	DocsInKeep  = 50
	DocsOutKeep = 35
	EventsKeep  = 1000
	doneKeep    = 256
	// UnprintedKeep: the vouchers reported unprinted (CreditMeters.Unprinted)
	// kept, the newest; the central system takes the newest 16 and voids
	// only vouchers issued minutes before.
	UnprintedKeep = 16
)
