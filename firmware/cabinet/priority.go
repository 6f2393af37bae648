package cabinet

import "github.com/polaris-vlt/polaris/firmware/view"

// condition is one thing that stops the cabinet from starting a game, a
// cash-out or taking money in. Every question of the form "may the player
// do this now?" and "which mode does the screen show?" is answered from
// conditionTable, through blocker and mode; nothing else restates it.
type condition int

const (
	condStarting condition = iota // power-up recovery has not finished
	condMenu                      // a key's menu is open
	condSoftware                  // software verification failed (check 8)
	condRAMError                  // no good ledger copy (check 4)
	condSelfTest                  // the start-up self-tests have not reported (check 10)
	condDoorOpen                  // a door is open (check 16)
	condTilt                      // a technician or device tilt (checks 6, 27)
	condLockup                    // a handpay waits for the attendant (check 26)
	condKeyOn                     // a key is turned, its menu refused
	condLinkDown                  // no central system (check 31)
	condDisabled                  // the central system disabled the cabinet
	condNoReader                  // the market requires a player card and the card reader is lost (check 36)
	condNoCard                    // the market requires a player card and none is logged in (check 36)
	condBreak                     // the player's break (check 36)
	condLeaving                   // the last player's logout not yet confirmed
	conditionCount
)

// conditionRule is one row of the table.
type conditionRule struct {
	// reason is the condition's name in logs and in view.MsgBlocked+reason;
	// "" for a condition that never reaches a player's Start.
	reason string
	// blocks: no new game, cash-out or money in while it holds.
	blocks bool
	// freezes: the player's buttons do nothing while it holds, even in a
	// round (a door holds the presentation, check 16).
	freezes bool
	// fault: it stops a round or a cash-out, so a key's menu may open over
	// it (check 29: never during play unless a fault stopped it).
	fault bool
	// mode is what the screen shows while it holds; overPlay: also over a
	// round or a cash-out in progress. A zero mode shows nothing.
	mode     view.Mode
	overPlay bool
}

// conditionTable is in priority order: the first condition that holds
// names why play is blocked and which mode shows. Test mode is not in it:
// it takes the buttons and the acceptor before any of these (testmode.go).
var conditionTable = [conditionCount]conditionRule{
	condStarting: {reason: "", blocks: true, mode: view.ModeStarting, overPlay: true},
	// A key turned on shows its pages over any state it may be opened in
	// (recall in error states, check 11; audit, check 29).
	condMenu:     {reason: "menu", blocks: true, mode: view.ModeMenu, overPlay: true},
	condSoftware: {reason: "software", blocks: true, freezes: true, fault: true, mode: view.ModeSoftware, overPlay: true},
	condRAMError: {reason: "ram_error", blocks: true, freezes: true, fault: true, mode: view.ModeRAMError, overPlay: true},
	condSelfTest: {reason: "self_test", blocks: true, freezes: true, mode: view.ModeStarting, overPlay: true},
	condDoorOpen: {reason: "door_open", blocks: true, freezes: true, fault: true, mode: view.ModeDoorOpen, overPlay: true},
	condTilt:     {reason: "tilt", blocks: true, freezes: true, fault: true, mode: view.ModeTilt, overPlay: true},
	condLockup:   {reason: "lockup", blocks: true, freezes: true, mode: view.ModeLockup, overPlay: true},
	condKeyOn:    {reason: "menu", blocks: true},
	// A round waiting for its outcome shows out of service itself (mode).
	condLinkDown: {reason: "link_down", blocks: true, fault: true, mode: view.ModeOutOfService},
	condDisabled: {reason: "disabled", blocks: true, mode: view.ModeDisabled},
	// No card can be seen: no new game or money in until the reader is
	// back; the round in progress completes (no freeze, no fault).
	condNoReader: {reason: "card_reader", blocks: true},
	condNoCard:   {reason: "no_card", blocks: true},
	// The round in progress completes; then only information shows.
	condBreak: {reason: "break", blocks: true, mode: view.ModeBreak},
	// A moment after a card leaves: the next round must not be booked to
	// the player who left.
	condLeaving: {reason: "player_logout", blocks: true},
}

// holds reports whether condition k holds now.
func (c *Cabinet) holds(k condition) bool {
	switch k {
	case condStarting:
		return !c.cond.started
	case condMenu:
		return c.menus.menu != nil
	case condSoftware:
		return c.cfg.Software.Error != ""
	case condRAMError:
		return c.cond.ramError
	case condSelfTest:
		return c.selfTest.starting()
	case condDoorOpen:
		return c.cond.doorOpen()
	case condTilt:
		return len(c.cond.tilts) > 0
	case condLockup:
		return len(c.cond.lockups) > 0
	case condKeyOn:
		return c.cond.keys["technician"] || c.cond.keys["attendant"]
	case condLinkDown:
		return !c.cond.linkUp
	case condDisabled:
		return c.cond.disabled != ""
	case condNoReader:
		return c.player.lost()
	case condNoCard:
		return c.player.noPlayer()
	case condBreak:
		return c.player.inBreak()
	case condLeaving:
		return c.player.leavingNow()
	}
	return false
}

// conditions are the conditions that hold at one instant, read from the
// parts (holds) at once: the table's questions are asked of them.
type conditions [conditionCount]bool

// conditions reads which conditions hold now.
func (c *Cabinet) conditions() conditions {
	var s conditions
	for k := range conditionCount {
		s[k] = c.holds(k)
	}
	return s
}

// first is the highest-priority condition that holds and has the property
// want, if any.
func (s conditions) first(want func(conditionRule) bool) (condition, bool) {
	for k := range conditionCount {
		if want(conditionTable[k]) && s[k] {
			return k, true
		}
	}
	return 0, false
}

// blocker is the one function that decides whether play is blocked: no new
// game, cash-out or money in may start while it reports a condition.
// Power-up recovery runs before the loop takes any event, so condStarting
// is not asked here (recovery itself settles rounds and reconciles money).
func (s conditions) blocker() (condition, bool) {
	return s.first(func(r conditionRule) bool { return r.blocks && r.reason != "" })
}

// blocked says why no new game, cash-out or money-in may start, or "".
func (s conditions) blocked() string {
	if k, ok := s.blocker(); ok {
		return conditionTable[k].reason
	}
	return ""
}

// blocked says why no new game, cash-out or money-in may start now, or "".
func (c *Cabinet) blocked() string { return c.conditions().blocked() }

// frozen: the player's buttons do nothing (keys and menus still work).
func (s conditions) frozen() bool {
	_, ok := s.first(func(r conditionRule) bool { return r.freezes })
	return ok
}

// faulted: a fault stopped play, so a menu may open over a round or a
// cash-out (check 29).
func (s conditions) faulted() bool {
	_, ok := s.first(func(r conditionRule) bool { return r.fault })
	return ok
}

// mode is what the screen shows: the first condition whose mode shows over
// what is in progress, else the round's or the cash-out's own mode.
func (c *Cabinet) mode() view.Mode {
	playing := c.play.round != nil || c.cashOut.voucher != nil
	if k, ok := c.conditions().first(func(r conditionRule) bool { return r.mode != "" && (r.overPlay || !playing) }); ok {
		return conditionTable[k].mode
	}
	if c.info != nil {
		return view.ModeInfo
	}
	if r := c.play.round; r != nil {
		switch r.phase {
		case phaseWaitOutcome:
			if c.holds(condLinkDown) {
				return view.ModeOutOfService
			}
			return view.ModeWagering
		case phaseRisk:
			return view.ModeRisk
		default:
			return view.ModePresenting
		}
	}
	if co := c.cashOut.voucher; co != nil {
		if co.phase == voucherAsking && c.holds(condLinkDown) {
			return view.ModeOutOfService // its number waits for the central system
		}
		return view.ModeCashout
	}
	return view.ModeIdle
}
