package view

// Status messages: what Snapshot.Message holds. The display's catalogues
// have "msg." + each; Messages lists them all for that check.
const (
	MsgMenuRefused        = "menu_refused"        // a key turned during play or a cash-out (check 29)
	MsgDoorClosed         = "door_closed"         // shown until the next game ends (check 17)
	MsgRAMCleared         = "ram_cleared"         // the technician cleared the critical memory
	MsgTicketRefused      = "ticket_refused"      // the central system refused a ticket
	MsgTakeTicket         = "take_ticket"         // a ticket waits in the printer's chute
	MsgCashoutUnavailable = "cashout_unavailable" // no voucher number from the central system
	MsgCashoutDone        = "cashout_done"        // with the amount: until the next game (check 33)
	MsgHandpayPaid        = "handpay_paid"        // with the amount
	MsgHandpayCredited    = "handpay_credited"    // with the amount: a large win put on the credit meter
	MsgInsufficientCredit = "insufficient_credit"
	MsgRoundRefused       = "round_refused"
	MsgRiskUnavailable    = "risk_unavailable"
	MsgNoteRefused        = "note_refused" // the acceptor gave a note back (unreadable, not taken here)
	MsgCashoutPaid        = "cashout_paid" // with the amount: the voucher was taken (check 33)
	// MsgBlocked + the reason (BlockReasons): Start pressed while blocked.
	MsgBlocked = "blocked_"
	// MsgPlayer + the central system's reason (PlayerReasons): a card
	// login or a wager refused for the player (central/PROTOCOL.md "Players").
	MsgPlayer = "player_"
)

// The handpay's paper: printing, waiting for the printer (the lockup
// stays), paid with a manual form, reprinted; a wrong attendant PIN.
const (
	MsgHandpayPrinting     = "handpay_printing"
	MsgHandpayWaitsPrinter = "handpay_waits_printer"
	MsgHandpayManual       = "handpay_manual"
	MsgHandpayReprinted    = "handpay_reprinted"
	MsgPINRefused          = "pin_refused"
)

// PlayerReasons are the central system's refusals of a card login or of a
// player's wager that the screen names.
var PlayerReasons = []string{"CARD_UNKNOWN", "CARD_BLOCKED", "CARD_AUTH_FAILED", "PLAYER_BLOCKED", "PLAYER_EXCLUDED",
	"PLAYER_LIMITS_UNDECIDED", "EXCLUSIONS_STALE", "PLAYER_NO_SESSION", "PLAYER_LIMIT", "PLAYER_BREAK", "PLAYER_SESSION_ELSEWHERE",
	"CARD_UNREADABLE"}

// BlockReasons are why play, cash-out and money in may be blocked.
var BlockReasons = []string{"software", "ram_error", "self_test", "door_open", "tilt", "lockup", "menu", "link_down", "disabled", "no_card", "break", "card_reader", "player_logout"}

// Messages lists every status message.
func Messages() []string {
	ms := []string{MsgMenuRefused, MsgDoorClosed, MsgRAMCleared, MsgTicketRefused, MsgTakeTicket,
		MsgCashoutUnavailable, MsgCashoutDone, MsgHandpayPaid, MsgHandpayCredited, MsgInsufficientCredit,
		MsgRoundRefused, MsgRiskUnavailable, MsgNoteRefused, MsgCashoutPaid,
		MsgHandpayPrinting, MsgHandpayWaitsPrinter, MsgHandpayManual, MsgHandpayReprinted, MsgPINRefused}
	for _, r := range BlockReasons {
		ms = append(ms, MsgBlocked+r)
	}
	for _, r := range PlayerReasons {
		ms = append(ms, MsgPlayer+r)
	}
	return ms
}

// Refusal reports whether msg answers a press (a refusal or a warning the
// player reads once): the cabinet ends it after a few seconds, and the
// display gives it the status line even over a win caption.
func Refusal(msg string) bool {
	switch msg {
	case MsgMenuRefused, MsgTicketRefused, MsgInsufficientCredit, MsgRoundRefused,
		MsgRiskUnavailable, MsgNoteRefused, MsgCashoutUnavailable, MsgTakeTicket:
		return true
	}
	return len(msg) > len(MsgBlocked) && msg[:len(MsgBlocked)] == MsgBlocked
}
