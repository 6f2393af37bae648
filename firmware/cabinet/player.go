package cabinet

import (
	"context"
	"errors"
	"time"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/drivers/cardreader"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// CardReader is the player card reader the cabinet asks to prove a card
// (challenge-response, drivers/cardreader/CARDS.md); *pcsc.Reader and
// *cardreadertest.Reader are ones. Its events reach the cabinet through
// Post(CardEvent{...}).
type CardReader interface {
	Authenticate(ctx context.Context, challenge []byte) (cardreader.Response, error)
}

// Players is what the cabinet asks the central system about the player
// logged in with a card; *link.Client is one. A Central that is not one
// has no players: a card is never logged in.
type Players interface {
	PlayerLogin(ctx context.Context, card string, respond func([]byte) ([]byte, error)) (*link.PlayerState, error)
	PlayerLogout(ctx context.Context, reason string) (*link.PlayerState, error)
	PlayerState(ctx context.Context) (*link.PlayerState, error)
}

// CardEvent is an event of the player card reader.
type CardEvent struct{ E cardreader.Event }

// PlayerPoll is how often the session is asked for while a player is in:
// it keeps the session alive at the central system (at least every minute)
// and brings the limits and the break to the screen.
const PlayerPoll = time.Minute

// playerState is the player part: the card in the reader and the session
// the central system opened for it.
type playerState struct {
	reader CardReader
	// players is the central system's side of the sessions; nil: the
	// Central keeps no players and a card is never logged in.
	players Players
	// cardRequired: the market allows no game without a player logged in.
	cardRequired bool
	card         string // the card in the reader, "" none
	// gen counts cards: a login or a poll answered for an earlier card is
	// dropped.
	gen     uint64
	login   bool              // a login is in flight
	session *link.PlayerState // nil: no player logged in
	shown   *view.Player      // the session as the screen shows it
	pollAt  time.Time
	polling bool
	// logout: the card left during a round; the session ends once the
	// round is settled (the round completes first).
	logout string
	// leaving: the session's logout is not yet confirmed by the central
	// system, which books a round to the session it holds for the cabinet:
	// a Start before the logout lands would be the last player's round (and
	// refused at that player's limit). Asked again after leaveRetry while
	// no answer comes.
	leaving   string
	leaveAt   time.Time
	leaveWait time.Duration
	leaveCall bool // the logout call is in flight
	// paidAtBreak: the credit was paid out at this break (the market's rule).
	paidAtBreak bool
	readerLost  bool // ReaderLost came, no ReaderBack or card since
}

type loginReply struct {
	gen   uint64
	state *link.PlayerState
	err   error
}

type playerStateReply struct {
	gen   uint64
	state *link.PlayerState
	err   error
}

func (CardEvent) event()        {}
func (loginReply) event()       {}
func (playerStateReply) event() {}

// SetCardReader gives the cabinet its player card reader; call it before
// Run.
func (c *Cabinet) SetCardReader(r CardReader) { c.player.reader = r }

// newPlayerState is the player part of a cabinet whose Central is
// central, in a market that may require a card.
func newPlayerState(central Central, cardRequired bool) playerState {
	p, _ := central.(Players)
	return playerState{players: p, cardRequired: cardRequired}
}

// noPlayer is the condition condNoCard: the market requires a card, the
// cabinet has a working reader and no session is open. A cabinet without
// a reader leaves it to the central system, which refuses the round
// (PLAYER_NO_SESSION) where it keeps the players: that check is where the
// money moves.
func (p *playerState) noPlayer() bool {
	return p.cardRequired && p.reader != nil && !p.readerLost && p.session == nil
}

// readerLost is the condition condNoReader: the market requires a card
// and the cabinet's reader is gone (unplugged, pcscd stopped). No card can
// be seen, so no new game and no money in until ReaderBack: the session of
// a card that was in ends (the reader reports it removed first) once the
// round on screen completes, and the screen says why, in place of asking
// for a card that could not be read. A market without cards plays on.
func (p *playerState) lost() bool {
	return p.cardRequired && p.reader != nil && p.readerLost
}

// inBreak is the condition condBreak: the player's session is in its break.
func (p *playerState) inBreak() bool { return p.session != nil && p.session.GetInBreak() }

// leavingNow is the condition condLeaving: the last session's logout is
// not yet confirmed.
func (p *playerState) leavingNow() bool { return p.leaving != "" }

// readerIs: the reader was lost, or is back (or a card was seen in it).
func (p *playerState) readerIs(lost bool) { p.readerLost = lost }

// inserted: card is in the reader (the one before it is out).
func (p *playerState) inserted(card string) {
	p.readerLost = false
	p.gen++
	p.card = card
}

// pollNow: the session is asked for at the next tick (its limits moved,
// or it may have ended).
func (p *playerState) pollNow(now time.Time) { p.pollAt = now }

func (c *Cabinet) cardEvent(e cardreader.Event) {
	switch e := e.(type) {
	case cardreader.CardInserted:
		c.cardOut("card_swapped") // a card that was in is out
		c.player.inserted(e.CardID)
		c.logEvent("card_inserted", "cardreader", e.CardID, 0)
		c.loop.async(c.player.startLogin())
	case cardreader.CardRemoved:
		c.cardOut("card_removed")
	case cardreader.ReaderLost:
		c.cardOut("reader_lost")
		c.player.readerIs(true)
		c.cfg.Hooks.Logf("cabinet: card reader lost: %v", e.Err)
		c.logEvent("card_reader_lost", "cardreader", errText(e.Err), 0)
		if c.player.lost() {
			c.play.stopAuto("card reader lost")
			c.say(view.MsgBlocked+conditionTable[condNoReader].reason, 0)
		}
	case cardreader.UnknownCard:
		c.cfg.Hooks.Logf("cabinet: unknown card: %s", e.Reason)
		c.say(view.MsgPlayer+string(refusal.CardUnknown), 0)
	case cardreader.ReaderBack:
		c.player.readerIs(false)
		c.logEvent("card_reader_back", "cardreader", "", 0)
		if c.play.message == view.MsgBlocked+conditionTable[condNoReader].reason {
			c.say("", 0)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// startLogin is the login of the card in the reader, to run off the loop;
// nil: none now.
func (ps *playerState) startLogin() func(context.Context) Event {
	p, rd := ps.players, ps.reader
	if p == nil || rd == nil || ps.card == "" {
		return nil
	}
	if ps.leaving != "" {
		// The last session's logout first: sent beside it, the login could
		// land first and the logout end the new session (logoutArrived
		// logs the card in).
		return nil
	}
	ps.login = true
	gen, card := ps.gen, ps.card
	return func(ctx context.Context) Event {
		st, err := p.PlayerLogin(ctx, card, func(ch []byte) ([]byte, error) {
			resp, err := rd.Authenticate(ctx, ch)
			if err != nil {
				return nil, err
			}
			if resp.CardID != card {
				return nil, cardreader.ErrCardRemoved // swapped during the exchange
			}
			return resp.MAC, nil
		})
		return loginReply{gen: gen, state: st, err: err}
	}
}

func (c *Cabinet) loginArrived(e loginReply) {
	if e.gen != c.player.gen {
		if e.err == nil && !c.player.login && c.player.session == nil {
			// The card left before its session opened: end it (a newer
			// card's login, in flight, replaces it at the central system).
			c.loop.async(c.player.logoutNow("card_removed"))
		}
		return
	}
	c.player.loginAnswered()
	if e.err != nil {
		reason := link.Reason(e.err)
		if reason == "" {
			reason = "CARD_UNREADABLE"
		}
		c.cfg.Hooks.Logf("cabinet: card %s refused: %v", c.player.card, e.err)
		c.logEvent("card_refused", "central", reason, 0)
		c.say(view.MsgPlayer+reason, 0)
		return
	}
	c.logEvent("player_login", "central", e.state.GetAccount(), 0)
	c.say("", 0)
	c.player.setSession(e.state, c.now())
}

// loginAnswered: the login's answer came.
func (p *playerState) loginAnswered() { p.login = false }

// cardOut ends the card's session: at once, or after the round on screen
// is settled (it completes first).
func (c *Cabinet) cardOut(why string) {
	if c.player.card == "" {
		return
	}
	c.logEvent("card_out", "cardreader", why, 0)
	if !c.player.out() {
		return
	}
	if c.play.round != nil {
		c.player.logoutAfterRound(why)
		c.play.stopAuto("card out")
		return
	}
	c.loop.async(c.player.logoutNow(why))
}

// out: the card left the reader; it reports whether a session is open.
func (p *playerState) out() bool {
	p.card = ""
	p.gen++
	p.login = false
	return p.session != nil
}

// logoutAfterRound: the session ends, for why, once the round on screen
// is settled.
func (p *playerState) logoutAfterRound(why string) { p.logout = why }

// logoutNow closes the session on screen, and returns the call that
// closes it at the central system (nil: no players there).
func (p *playerState) logoutNow(why string) func(context.Context) Event {
	p.logout = ""
	p.session, p.shown = nil, nil
	p.paidAtBreak = false
	if p.players == nil {
		return nil
	}
	p.leaving, p.leaveWait = why, 0
	return p.askLogout()
}

// Retries of a logout the central system did not answer.
const (
	leaveRetry    = time.Second
	maxLeaveRetry = 30 * time.Second
)

// askLogout asks the central system to end the session (idempotent: a
// session already ended is answered as ended).
func (ps *playerState) askLogout() func(context.Context) Event {
	p, why := ps.players, ps.leaving
	ps.leaveCall, ps.leaveAt = true, time.Time{}
	return func(ctx context.Context) Event {
		_, err := p.PlayerLogout(ctx, why)
		return logoutReply{err: err}
	}
}

// askLogoutAgain: the logout waits for an answer and the link is back.
func (p *playerState) askLogoutAgain() bool { return p.leaving != "" && !p.leaveCall }

type logoutReply struct{ err error }

func (logoutReply) event() {}

// logoutArrived: the session ended at the central system, or it refused
// (no session to end: nothing to wait for), and a card put in meanwhile
// logs in now; without an answer it is asked again.
func (c *Cabinet) logoutArrived(e logoutReply) {
	if e.err != nil && answerUnknown(e.err) {
		c.cfg.Hooks.Logf("cabinet: player logout: no answer from the central system, asked again: %v", e.err)
		c.player.logoutUnanswered(c.now())
		return
	}
	if e.err != nil {
		c.cfg.Hooks.Logf("cabinet: player logout refused: %v", e.err)
	}
	c.loop.async(c.player.loggedOut())
}

// logoutUnanswered: the logout is asked again after a wait that doubles
// (leaveRetry to maxLeaveRetry).
func (p *playerState) logoutUnanswered(now time.Time) {
	p.leaveCall = false
	p.leaveWait = min(max(2*p.leaveWait, leaveRetry), maxLeaveRetry)
	p.leaveAt = now.Add(p.leaveWait)
}

// loggedOut: the central system ended the session (or had none); a card
// put in meanwhile logs in now: its login is returned.
func (p *playerState) loggedOut() func(context.Context) Event {
	p.leaveCall = false
	p.leaving = ""
	if p.card != "" && !p.login && p.session == nil {
		return p.startLogin()
	}
	return nil
}

// setSession is the session as the central system answered it at now.
func (p *playerState) setSession(st *link.PlayerState, now time.Time) {
	if st == nil || !st.GetActive() {
		p.session, p.shown = nil, nil
		return
	}
	p.session = st
	p.shown = playerView(st)
	p.pollAt = now.Add(PlayerPoll)
}

func (c *Cabinet) stateArrived(e playerStateReply) {
	if !c.player.polled(e.gen) {
		return
	}
	if e.err != nil {
		// Asked again at the next poll; the session stays as last known.
		c.cfg.Hooks.Logf("cabinet: player state: %v", e.err)
		return
	}
	c.player.setSession(e.state, c.now())
	if c.player.session == nil {
		// Ended at the central system (no call for 15 minutes while the
		// link was down): the card still in logs in again.
		c.logEvent("player_session_ended", "central", "", 0)
		c.loop.async(c.player.startLogin())
	}
}

// polled: a poll's answer came; false: it is for an earlier card or no
// session, and dropped.
func (p *playerState) polled(gen uint64) bool {
	p.polling = false
	return gen == p.gen && p.session != nil
}

// poll is the session's poll, to run off the loop, when one is due at now.
func (ps *playerState) poll(now time.Time) func(context.Context) Event {
	p := ps.players
	if ps.session == nil || ps.polling || now.Before(ps.pollAt) || p == nil {
		return nil
	}
	ps.polling = true
	ps.pollAt = now.Add(PlayerPoll)
	gen := ps.gen
	return func(ctx context.Context) Event {
		st, err := p.PlayerState(ctx)
		return playerStateReply{gen: gen, state: st, err: err}
	}
}

// payAtBreak: the market pays the credit out at the break, and this
// break's has not been; it is taken as paid.
func (p *playerState) payAtBreak() bool {
	s := p.session
	if !s.GetInBreak() || s.GetBreakCredit() != "payout" || p.paidAtBreak {
		return false
	}
	p.paidAtBreak = true
	return true
}

// breakOver: the break ended; the next one pays out again.
func (p *playerState) breakOver() {
	if p.session != nil && !p.session.GetInBreak() {
		p.paidAtBreak = false
	}
}

// tickPlayer polls the session, ends one whose card left during a
// finished round, and applies the market's rule for the credit at a break.
func (c *Cabinet) tickPlayer(now time.Time) {
	if c.play.message == "" && c.play.round == nil && c.player.lost() {
		// Said again once a round's messages are gone: the reason stays on
		// screen while the reader is lost.
		c.say(view.MsgBlocked+conditionTable[condNoReader].reason, 0)
	}
	if r := c.play.round; c.player.logout != "" && r != nil && r.phase == phaseRiskOffer {
		// The player left: the win is collected, never gambled for them.
		c.settle(r)
	}
	if c.player.logout != "" && c.play.round == nil {
		c.loop.async(c.player.logoutNow(c.player.logout))
	}
	if c.player.askLogoutAgain() && c.cond.linkUp && !c.player.leaveAt.IsZero() && !now.Before(c.player.leaveAt) {
		c.loop.async(c.player.askLogout())
	}
	if c.player.session == nil {
		return
	}
	c.loop.async(c.player.poll(now))
	if c.play.round == nil && c.cashOut.voucher == nil && c.credit() > 0 && c.player.payAtBreak() {
		c.play.stopAuto("break")
		c.collect()
	}
	c.player.breakOver()
}

// playerView is the session as the screen shows it.
func playerView(st *link.PlayerState) *view.Player {
	p := &view.Player{Name: st.GetName(), BreakWarning: st.GetBreakWarning(), InBreak: st.GetInBreak(), BreakCredit: st.GetBreakCredit()}
	if t := st.GetBreakAtUnixNano(); t != 0 {
		p.BreakAt = time.Unix(0, t).UTC()
	}
	if t := st.GetBreakUntilUnixNano(); t != 0 {
		p.BreakUntil = time.Unix(0, t).UTC()
	}
	for _, l := range st.GetLimits() {
		if !l.GetDecided() {
			continue
		}
		p.Limits = append(p.Limits, view.PlayerLimit{Kind: l.GetKind(), Set: l.GetSet(), Amount: engine.Money(l.GetAmount()), Left: engine.Money(l.GetLeft())})
	}
	return p
}

// playerRefusal says a wager refused for the player (a PLAYER_ reason:
// refused before the draw, so refunded) on the status line.
func (c *Cabinet) playerRefusal(e error) bool {
	var r *link.RefusedError
	if !errors.As(e, &r) || !link.DrewNothing(r.Reason) {
		return false
	}
	switch reason := refusal.Reason(r.Reason); reason {
	case refusal.PlayerNoSession, refusal.PlayerExcluded, refusal.PlayerBlocked, refusal.PlayerLimit,
		refusal.PlayerLimitsUndecided, refusal.PlayerBreak, refusal.CardBlocked:
		c.say(view.MsgPlayer+r.Reason, 0)
		if reason != refusal.PlayerLimit {
			// Ask now: the session may have ended or its break begun.
			c.player.pollNow(c.now())
		}
		return true
	}
	return false
}
