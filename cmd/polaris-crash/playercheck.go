package main

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"time"

	"github.com/polaris-vlt/polaris/central/players"
	"github.com/polaris-vlt/polaris/central/reports"
	"github.com/polaris-vlt/polaris/firmware/devkit"
	"github.com/polaris-vlt/polaris/firmware/ledger"
)

// playerCheck reconciles, per player, what the central system counted
// with what the cabinet's ledger played under that player's card: the
// ledger says which card was logged in when it wagered a round (its
// player_login events), the central system's player records (the admin
// API's history and show) which account each bet was booked to.
type playerCheck struct {
	dataDir, cabinet string
	store            string // the central store, for the drawn rounds
	cards            *cardPlay
	// attrib is the account the ledger wagered each round under ("" none),
	// kept as the ledger's events age out.
	attrib map[uint64]string
	stakes map[uint64]int64 // stake of each round the ledger wagered
	said   map[string]bool
}

func newPlayerCheck(dataDir, cabinet, store string, cards *cardPlay) *playerCheck {
	return &playerCheck{dataDir: dataDir, cabinet: cabinet, store: store, cards: cards,
		attrib: map[uint64]string{}, stakes: map[uint64]int64{}, said: map[string]bool{}}
}

// sessionEvents are the ledger events that change who is logged in.
var sessionEvents = map[string]bool{ledger.EventPowerUp: true, "player_login": true, "card_out": true,
	"card_inserted": true, "card_refused": true, "player_session_ended": true}

// loggedIn is the account logged in at the cabinet at instant at, from
// its events in order: the last player_login before it, "" when a card
// left, another came, a login was refused or the cabinet powered up
// since. false: the events of that time are no longer kept.
func loggedIn(evs []ledger.Event, at time.Time) (string, bool) {
	if len(evs) == 0 || evs[0].Wall.After(at) {
		return "", false
	}
	who := ""
	for _, e := range evs {
		if e.Wall.After(at) {
			break
		}
		if sessionEvents[e.Kind] {
			who = ""
			if e.Kind == "player_login" {
				who = e.Text
			}
		}
	}
	return who, true
}

// kill kinds the summary counts.
const (
	killLogin = "login"
	killRound = "mid-round"
	killBreak = "break"
	killOther = "idle"
)

// check runs with the cabinet dead and a node up. It returns the kill's
// kinds (what the cabinet was doing when it died) and the discrepancies
// not reported before. inBreak says a session was in its break at the
// kill (asked just before it).
func (pc *playerCheck) check(final, inBreak bool) (kinds []string, bad []string, err error) {
	badf := func(format string, a ...any) {
		if m := fmt.Sprintf(format, a...); !pc.said[m] {
			pc.said[m] = true
			bad = append(bad, m)
		}
	}
	led, err := ledger.Open(ledger.Options{DirA: filepath.Join(pc.dataDir, "ledger-a"), DirB: filepath.Join(pc.dataDir, "ledger-b")})
	if err != nil {
		return nil, nil, fmt.Errorf("ledger: %w", err)
	}
	evs := led.Events(ledger.EventsKeep)
	sort.Slice(evs, func(i, j int) bool { return evs[i].Seq < evs[j].Seq })
	rounds := led.Recall(ledger.RecallKeep)
	open, isOpen := led.OpenRound()
	if isOpen {
		rounds = append(rounds, open)
	}
	led.Close()

	// What the cabinet was doing at the kill: its last life's events.
	if !final {
		last := -1
		for i, e := range evs {
			if e.Kind == ledger.EventPowerUp {
				last = i
			}
		}
		login := false
		for _, e := range evs[last+1:] {
			switch e.Kind {
			case "card_inserted":
				login = true
			case "player_login", "card_refused", "card_out":
				login = false
			}
		}
		if login {
			kinds = append(kinds, killLogin)
		}
		if isOpen && open.Status != ledger.RoundSettled && open.Status != ledger.RoundRefunded {
			kinds = append(kinds, killRound)
		}
		if inBreak {
			kinds = append(kinds, killBreak)
		}
		if len(kinds) == 0 {
			kinds = append(kinds, killOther)
		}
	}

	// Who the ledger wagered each round under.
	for _, r := range rounds {
		if len(r.Journal) == 0 || r.Journal[0].Kind != ledger.JournalWager {
			continue
		}
		pc.stakes[r.Number] = r.Stake
		if _, ok := pc.attrib[r.Number]; ok {
			continue
		}
		if who, ok := loggedIn(evs, r.Journal[0].Wall); ok {
			pc.attrib[r.Number] = who
		}
	}

	// The central system's side.
	db, err := devkit.OpenStore(pc.dataDir, pc.store)
	if err != nil {
		return kinds, bad, err
	}
	defer db.Close()
	ctx := context.Background()
	drawn, err := reports.DrawnRounds(ctx, db, pc.cabinet)
	if err != nil {
		return kinds, bad, err
	}
	adm := adminAPI(pc.cards.sysAdmin())
	booked := map[uint64]players.Entry{} // round -> its bet
	bookedTo := map[uint64]string{}
	for _, c := range pc.cards.cards {
		hist, err := adm.history(c.account)
		if err != nil {
			return kinds, bad, err
		}
		var stakes int64
		open := 0
		for _, e := range hist {
			switch e.Kind {
			case "bet":
				if e.Cabinet != pc.cabinet {
					continue
				}
				if prev, twice := bookedTo[e.Round]; twice {
					badf("round %d booked to two players (%s and %s)", e.Round, prev, c.account)
				}
				booked[e.Round], bookedTo[e.Round] = e, c.account
				stakes += e.Stake
			case "session":
				if e.Ended.IsZero() {
					open++
				}
			}
		}
		if open > 1 {
			badf("player %s has %d sessions open", c.account, open)
		}
		in, err := adm.show(c.account)
		if err != nil {
			return kinds, bad, err
		}
		for _, l := range in.Limits {
			switch {
			case l.Kind == players.BetsMonth && l.Used != stakes:
				badf("player %s: %d counted against the monthly bet limit, bets of %d booked", c.account, l.Used, stakes)
			case l.Kind == players.BetsDay && l.Set && l.Used > l.Amount:
				badf("player %s: bets of %d today over the daily limit of %d", c.account, l.Used, l.Amount)
			}
		}
		if final {
			// The card left in the reader has its session resumed at this
			// cabinet; every other player's is closed.
			inReader := pc.cards.in >= 0 && pc.cards.cards[pc.cards.in].account == c.account
			switch s := in.Session; {
			case inReader && (s == nil || !s.Active || s.Cabinet != pc.cabinet):
				badf("player %s: the card is in the reader after recovery but no session is open at %s", c.account, pc.cabinet)
			case !inReader && s != nil && s.Active && s.Cabinet == pc.cabinet:
				badf("player %s: session %d still open at %s after the card left", c.account, s.Session, pc.cabinet)
			}
		}
	}
	isDrawn := map[uint64]reports.DrawnRound{}
	for _, d := range drawn {
		isDrawn[d.Round] = d
		b, ok := booked[d.Round]
		if !ok {
			badf("round %d drawn in the card-required market but booked to no player", d.Round)
			continue
		}
		if b.Stake != d.Stake {
			badf("round %d: stake %d booked to player %s, %d drawn", d.Round, b.Stake, bookedTo[d.Round], d.Stake)
		}
		if who, ok := pc.attrib[d.Round]; ok && who != bookedTo[d.Round] {
			badf("round %d: wagered at the cabinet under %q, booked to player %s", d.Round, who, bookedTo[d.Round])
		}
	}
	for n, b := range booked {
		if _, ok := isDrawn[n]; !ok {
			badf("round %d booked to player %s (stake %d) but never drawn", n, bookedTo[n], b.Stake)
		}
		if s, ok := pc.stakes[n]; ok && s != b.Stake {
			badf("round %d: stake %d in the ledger, %d booked to player %s", n, s, b.Stake, bookedTo[n])
		}
	}
	// The rounds the ledger settled with a win: the player was booked it.
	for _, r := range rounds {
		b, ok := booked[r.Number]
		if !ok || r.Status != ledger.RoundSettled || r.Settlement == nil {
			continue
		}
		if won := r.Settlement.Credit + r.Settlement.Handpay; won != b.Win {
			badf("round %d: won %d at the cabinet, %d booked to player %s", r.Number, won, b.Win, bookedTo[r.Number])
		}
	}
	return kinds, bad, nil
}

// inBreak asks whether the player in the reader is in a break now.
func (c *cardPlay) inBreak() bool {
	if c.in < 0 {
		return false
	}
	in, err := adminAPI(c.sysAdmin()).show(c.cards[c.in].account)
	return err == nil && in.Session != nil && in.Session.InBreak
}

// waitBreak waits up to d for the player in the reader to be in a break.
func (c *cardPlay) waitBreak(d time.Duration) bool {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if c.inBreak() {
			return true
		}
	}
	return false
}
