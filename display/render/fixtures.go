package render

import (
	"time"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/magicstars"
	"github.com/polaris-vlt/polaris/engine/wishstar"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/money"
)

// Fixture is a constructed snapshot and the instant to draw it at: the
// scenes screenshots show and tests check.
type Fixture struct {
	Name string
	Snap *view.Snapshot
	At   time.Time
}

// T0 is the fixtures' clock origin.
var T0 = time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)

var (
	eur = money.Currency{Code: "EUR", MinorUnits: 2, Symbol: "€"}
	czk = money.Currency{Code: "CZK", MinorUnits: 0, Symbol: "Kč"}
)

// Timeline places a step as the cabinet's default timing does.
func Timeline(start time.Time) view.StepTime {
	t := view.StepTime{Start: start}
	for i := range t.Stops {
		t.Stops[i] = start.Add(1200*time.Millisecond + time.Duration(i)*250*time.Millisecond)
	}
	t.Wins = t.Stops[4].Add(100 * time.Millisecond)
	t.End = t.Wins.Add(2 * time.Second)
	return t
}

func wsScreen(cols [5][3]engine.Symbol) engine.Screen { return engine.Screen(cols) }

const (
	ten, jj, qq, kk, aa     = wishstar.Ten, wishstar.J, wishstar.Q, wishstar.K, wishstar.A
	bell, cane, candle      = wishstar.Bell, wishstar.Cane, wishstar.Candle
	tree, elf, bonus, wild  = wishstar.Tree, wishstar.Elf, wishstar.Bonus, wishstar.Wild
	wstar, blank            = wishstar.Star, wishstar.Blank
	mStar, melon, grape     = magicstars.Star, magicstars.Melon, magicstars.Grape
	plum, orange, raspberry = magicstars.Plum, magicstars.Orange, magicstars.Raspberry
	cherry, lemon           = magicstars.Cherry, magicstars.Lemon
)

// WSBase is a Wish Upon a Star screen with elf and candle ways wins.
var WSBase = wsScreen([5][3]engine.Symbol{
	{elf, kk, candle}, {qq, wild, bell}, {elf, candle, ten}, {jj, aa, tree}, {cane, bonus, jj},
})

// MSBase is a Magic Stars screen with a cherry line and star-carrying cells.
var MSBase = engine.Screen{{lemon, cherry, plum}, {grape, cherry, orange}, {melon, cherry, raspberry}}

func wsStep(kind engine.StepKind, sc engine.Screen, free bool, stake engine.Money) engine.Step {
	st := engine.Step{Kind: kind, Screen: sc}
	if ev, err := wishstar.Evaluate(sc, stake, free); err == nil {
		st.Wins, st.Pay, st.Multiplier = ev.Wins, ev.Total, ev.Multiplier
	}
	return st
}

func msStep(sc engine.Screen, marked uint16, stake engine.Money) engine.Step {
	st := engine.Step{Kind: engine.StepBase, Screen: sc, Marked: marked}
	var cells [3][3]magicstars.Cell
	for r := range 3 {
		for row := range 3 {
			cells[r][row] = magicstars.Cell{Sym: sc[r][row], Star: marked&(1<<(r*3+row)) != 0}
		}
	}
	if ev, err := magicstars.Evaluate(cells, stake); err == nil {
		st.Wins, st.Pay, st.FullScreen = ev.Wins, ev.Pay, ev.FullScreen
	}
	return st
}

func lamps(on ...view.Button) map[view.Button]view.Lamp {
	l := map[view.Button]view.Lamp{}
	for _, b := range view.Buttons {
		l[b] = view.LampOff
	}
	for _, b := range on {
		l[b] = view.LampOn
	}
	return l
}

func round(g engine.GameID, stake engine.Money, start time.Time, steps ...engine.Step) *view.Round {
	rd := &view.Round{Number: 42, Game: g, Stake: stake, Steps: steps}
	for i := range steps {
		rd.Timeline = append(rd.Timeline, Timeline(start.Add(time.Duration(i)*4*time.Second)))
		rd.Total += steps[i].Pay
	}
	return rd
}

// wsSnap and msSnap are the fixtures' cabinets: Austria's Wish Upon a
// Star at €1.00, the Czech Magic Stars at 50 Kč, with credit.
func wsSnap(lang string, mode view.Mode) *view.Snapshot {
	return &view.Snapshot{Mode: mode, Market: "at", Language: lang, Currency: eur, Game: engine.WishStar,
		Games: []engine.GameID{engine.WishStar, engine.MagicStars}, Bets: wishstar.Default.Stakes(), Bet: 100,
		Credit: 123450, Lamps: lamps(view.Start, view.Auto, view.BetMinus, view.BetPlus, view.Collect), Tower: "off"}
}

func msSnap(lang string, mode view.Mode) *view.Snapshot {
	return &view.Snapshot{Mode: mode, Market: "cz", Language: lang, Currency: czk, Game: engine.MagicStars,
		Games: []engine.GameID{engine.MagicStars}, Bets: magicstars.Stakes(), Bet: 50, Credit: 2500,
		Jackpots: []view.Jackpot{{Name: "magicstars", Amount: 1234567}},
		Lamps:    lamps(view.Start, view.Auto, view.BetMinus, view.BetPlus, view.Collect), Tower: "off"}
}

// Fixtures are the scenes of the display in lang, one snapshot each.
func Fixtures(lang string) []Fixture {
	ws := func(mode view.Mode) *view.Snapshot { return wsSnap(lang, mode) }
	ms := func(mode view.Mode) *view.Snapshot { return msSnap(lang, mode) }
	var out []Fixture
	add := func(name string, s *view.Snapshot, at time.Time) { out = append(out, Fixture{name, s, at}) }

	a := ws(view.ModeAttract)
	a.Market = "demo" // both games
	a.Credit = 0
	a.Lamps = lamps(view.BetMinus, view.BetPlus)
	add("attract", a, T0)

	idle := ws(view.ModeIdle)
	add("ws_idle", idle, T0)

	base := wsStep(engine.StepBase, WSBase, false, 100)
	sp := ws(view.ModePresenting)
	sp.Round = round(engine.WishStar, 100, T0, base)
	sp.Lamps = lamps(view.Stop)
	add("ws_spinning", sp, T0.Add(1500*time.Millisecond))

	wn := ws(view.ModePresenting)
	wn.Round = sp.Round
	wn.Win = base.Pay
	wn.Lamps = lamps()
	add("ws_wins", wn, T0.Add(2500*time.Millisecond))

	free := wsStep(engine.StepFree, wsScreen([5][3]engine.Symbol{
		{bonus, ten, aa}, {kk, jj, qq}, {bonus, bell, cane}, {tree, elf, qq}, {aa, ten, bonus}}), true, 100)
	free.FreeSpinsLeft = 7
	fs := ws(view.ModePresenting)
	fs.Round = round(engine.WishStar, 100, T0, base, free)
	fs.Win = 1840
	fs.Lamps = lamps()
	add("ws_free_spins", fs, T0.Add(6500*time.Millisecond))

	lock := engine.Step{Kind: engine.StepLockSpin, RespinsLeft: 2}
	var locked uint16
	for i, cell := range []int{0, 2, 4, 6, 7, 9, 13, 14} {
		locked |= 1 << cell
		lock.StarValues[cell] = engine.Money((i%5 + 1) * 100)
	}
	lock.StarJackpot[7] = engine.Minor
	lock.StarValues[7] = 3000
	lock.Locked = locked
	for reel := range 5 {
		for row := range 3 {
			lock.Screen[reel][row] = blank
			if locked&(1<<(reel*3+row)) != 0 {
				lock.Screen[reel][row] = wstar
			}
		}
	}
	ls := ws(view.ModePresenting)
	ls.Round = round(engine.WishStar, 100, T0, lock)
	ls.Lamps = lamps()
	add("ws_lock_spin", ls, T0.Add(2400*time.Millisecond))

	bw := engine.Step{Kind: engine.StepBonusWin, BonusReel: 1, Screen: wsScreen([5][3]engine.Symbol{
		{kk, elf, aa}, {wild, wild, wild}, {ten, tree, qq}, {bell, jj, aa}, {cane, candle, kk}}),
		Wins: []engine.Win{{Kind: engine.WinJackpot, Jackpot: engine.Major, Amount: 5000}}, Pay: 5000}
	bs := ws(view.ModePresenting)
	bs.Round = round(engine.WishStar, 100, T0, bw)
	bs.Win = 5000
	bs.Lamps = lamps()
	add("ws_bonus_win", bs, T0.Add(3000*time.Millisecond))

	add("ms_idle", ms(view.ModeIdle), T0)

	mstep := msStep(MSBase, 1<<0|1<<5|1<<7, 50)
	msp := ms(view.ModePresenting)
	msp.Round = round(engine.MagicStars, 50, T0, mstep)
	msp.Lamps = lamps(view.Stop)
	add("ms_spinning", msp, T0.Add(1300*time.Millisecond))

	mw := ms(view.ModePresenting)
	mw.Round = msp.Round
	mw.Win = mstep.Pay
	mw.RiskOffer = true
	mw.Lamps = lamps(view.Start, view.Collect)
	mw.Lamps[view.Risk] = view.LampBlink
	add("ms_line_win", mw, T0.Add(2600*time.Millisecond))

	mf := msStep(engine.Screen{{plum, mStar, lemon}, {orange, grape, melon}, {raspberry, cherry, lemon}}, 1<<1|1<<3|1<<8, 50)
	mf.Kind = engine.StepFree
	mf.FreeSpinsLeft = 18
	mfs := ms(view.ModePresenting)
	mfs.Round = round(engine.MagicStars, 50, T0, mf)
	mfs.Win = 320
	mfs.Lamps = lamps()
	add("ms_free_spins", mfs, T0.Add(2600*time.Millisecond))

	rk := ms(view.ModeRisk)
	rk.Round = msp.Round
	rk.Win = 80
	last := engine.RiskStep{Step: 2, Choice: engine.Red, Card: 11, Won: true, Before: 40, After: 80}
	rk.Risk = &view.RiskView{Step: 2, Win: 80, Last: &last, CanRed: true, CanLeave: true,
		History: []engine.RiskStep{{Step: 1, Choice: engine.Black, Card: 40, Won: true, Before: 20, After: 40}, last}}
	rk.Lamps = lamps(view.BetMinus, view.BetPlus, view.Collect, view.Start)
	add("risk", rk, T0)

	jl := ms(view.ModeLockup)
	jl.Round = msp.Round
	jl.Lockup = &view.Lockup{Kind: "handpay_jackpot", Amount: 1234567}
	jl.Tower = "call"
	jl.Lamps = lamps()
	add("lockup_jackpot", jl, T0.Add(5*time.Second))

	hl := ws(view.ModeLockup)
	hl.Lockup = &view.Lockup{Kind: "handpay_win", Amount: 250000}
	hl.Round = sp.Round
	hl.Tower = "call"
	hl.Lamps = lamps()
	add("lockup_handpay", hl, T0.Add(5*time.Second))

	tl := ws(view.ModeTilt)
	tl.Tilts = []string{"acceptor: jam in acceptor", "central system refused round 1234 (VOIDED): held, not refunded", "printer: paper out"}
	tl.TiltKinds = []string{"acceptor", "central_refused", "printer"}
	// As firmware/cabinet reads them back (tiltdetail.go).
	tl.TiltLines = []view.MenuLine{view.Line("tiltd.fault", view.Key("fault.jam_in_acceptor")),
		view.Line("tiltd.central_refused", view.Text("1234"), view.Text("VOIDED")), view.Line("tiltd.fault", view.Key("fault.paper_out"))}
	tl.Tower = "tilt"
	tl.Lamps = lamps()
	add("tilt", tl, T0)

	dr := ms(view.ModeDoorOpen)
	dr.Doors = []string{"cashbox", "main"}
	dr.Tower = "door"
	dr.Lamps = lamps()
	add("door_open", dr, T0)

	oos := ws(view.ModeOutOfService)
	oos.Lamps = lamps()
	add("out_of_service", oos, T0)

	ram := ws(view.ModeRAMError)
	ram.Tower = "tilt"
	ram.Lamps = lamps()
	add("ram_error", ram, T0)

	mn := ws(view.ModeMenu)
	// The technician's pages as firmware/cabinet words them: catalogue
	// keys with arguments, translated and formatted here.
	L, txt, cnt, mon, key := view.Line, view.Text, view.Count, view.Money, view.Key
	mn.Menu = &view.MenuPage{Title: "menu.meters", Page: 2, Pages: 9, Lines: []view.MenuLine{
		L("menu.meter", key("meter.coin_in"), mon(1250075)), L("menu.meter", key("meter.coin_out"), mon(980050)),
		L("menu.meter", key("meter.games_played"), cnt(41217)), L("menu.meter", key("meter.games_won"), cnt(13302)),
		L("menu.meter", key("meter.handpay_win"), mon(250000)), L("menu.meter", key("meter.handpay_to_credit"), mon(0)),
		L("menu.meter", key("meter.handpay_cancelled_credit"), mon(0)), L("menu.meter", key("meter.jackpot_attendant"), mon(0)),
		L("menu.meter", key("meter.bills_in_value"), mon(1500000)), L("menu.meter", key("meter.bills_in_count"), cnt(412)),
		L("menu.meter", key("meter.tickets_in_value"), mon(32000)), L("menu.meter", key("meter.tickets_in_count"), cnt(17)),
		L("menu.meter", key("meter.tickets_out_value"), mon(530025)), L("menu.meter", key("meter.tickets_out_count"), cnt(96)),
		L("menu.meter", key("meter.total_drop"), mon(1532000)), L("menu.meter", key("meter.risk_wagered"), mon(88000)),
		L("menu.meter", key("meter.risk_won"), mon(84000)), L("menu.meter", key("meter.wagers_refunded"), mon(200)),
		L("menu.meter", key("meter.door_opens"), cnt(5)), L("menu.meter", key("meter.power_ups"), cnt(31)),
		L("menu.meter", key("meter.ram_clears"), cnt(1))}}
	add("menu_meters", mn, T0)

	co := ws(view.ModeCashout)
	co.Lamps = lamps()
	add("cashout", co, T0)

	stg := ws(view.ModeStarting)
	stg.Lamps = lamps()
	add("starting", stg, T0)

	rc := ws(view.ModeMenu)
	rc.Lamps = lamps()
	rc.Menu = RecallFixture()
	add("menu_recall", rc, T0)

	dis := ws(view.ModeDisabled)
	dis.Lamps = lamps()
	add("disabled", dis, T0)

	// Test mode (check 28), as firmware/cabinet publishes it: every lamp
	// lit, the last pressed blinking.
	tm := ws(view.ModeMenu)
	tm.Lamps = lamps()
	for b := range tm.Lamps {
		tm.Lamps[b] = view.LampOn
	}
	tm.Lamps[view.Stop] = view.LampBlink
	tm.Menu = &view.MenuPage{Title: "menu.test_mode", Page: 1, Pages: 1, Lines: []view.MenuLine{
		L("menu.test_mode.buttons", key("hint.stop")), L("menu.test_mode.acceptor"), L("menu.test_mode.note", mon(2000)),
		L("menu.test_mode.printer", cnt(1), key("docres.printed")),
		L("menu.test_mode.tower", key("colour.yellow")), L("menu.test_mode.meters", txt("")),
		L("menu.test_mode.meter_pulsed", key("hardmeter.in")), L("menu.test_mode.meter_pulsed", key("hardmeter.out")),
		L("menu.test_mode.meter_pulsed", key("hardmeter.drop")), L("menu.test_mode.meter_pulsed", key("hardmeter.jackpot")),
		L("menu.test_mode.meter_refused", key("hardmeter.games"), txt("no sense pulse")),
		L("menu.test_mode.leave")}}
	tm.Tower = "test:yellow"
	add("menu_test_mode", tm, T0)

	// The attendant's choice on a large-win lockup (check 26).
	hp := ws(view.ModeMenu)
	hp.Lamps = lamps()
	hp.Menu = &view.MenuPage{Title: "menu.handpay", Lines: []view.MenuLine{
		L("menu.handpay.amount", mon(250000)), L("menu.handpay.start"), L("menu.handpay.key")}, Hint: "menu.hint.handpay"}
	add("menu_handpay_choice", hp, T0)

	// The attendant's key on a voucher the unreachable central system
	// never answered: Start pays it by hand.
	vu := ws(view.ModeMenu)
	vu.Lamps = lamps()
	vu.Menu = &view.MenuPage{Title: "menu.voucher_unanswered", Lines: []view.MenuLine{
		L("menu.voucher_unanswered.amount", mon(10000)), L("menu.voucher_unanswered.text"), L("menu.voucher_unanswered.text2"),
		L("menu.voucher_unanswered.start"), L("menu.voucher_unanswered.key")}, Hint: "menu.hint.voucher_unanswered"}
	add("menu_voucher_unanswered", vu, T0)

	// Check 33: the cash-out's amount stays on the status line.
	cd := ws(view.ModeIdle)
	cd.Lamps = lamps()
	cd.Message, cd.MessageAmount = view.MsgCashoutDone, 2000
	add("cashout_done", cd, T0)

	// A lost card after the round settled: idle again, the card still shown.
	rl := ms(view.ModeIdle)
	rl.Round = msp.Round
	lost := engine.RiskStep{Step: 1, Choice: engine.Red, Card: 40, Won: false, Before: 40, After: 0}
	rl.Risk = &view.RiskView{Step: 1, Win: 0, Last: &lost, History: []engine.RiskStep{lost}, ShowUntil: T0.Add(2500 * time.Millisecond)}
	rl.Lamps = lamps(view.Start, view.Auto, view.BetMinus, view.BetPlus, view.Collect)
	add("risk_lost", rl, T0.Add(time.Second))

	// A Czech cabinet offers Magic Stars only: its attract mode parades
	// that game under its name.
	ac := ms(view.ModeAttract)
	ac.Credit = 0
	ac.Lamps = lamps(view.BetMinus, view.BetPlus)
	add("attract_cz", ac, T0)

	// The technician's pages, as firmware/cabinet publishes them.
	au := ws(view.ModeMenu)
	au.Menu = &view.MenuPage{Title: "menu.audit", Page: 1, Pages: 9, Lines: []view.MenuLine{
		L("menu.audit.terminal", txt("cab-1")), L("menu.audit.site", txt("hall-7"), txt("Herna U Nádraží")),
		L("menu.audit.version", txt("1.2.3")), L("menu.audit.software_id", txt("sha256:9f2c4e1a")),
		L("menu.audit.ledger", txt("led-4f1e"), txt("1042"), txt("5b2e93a0c1d477e2")),
		L("menu.audit.market", txt("at"), txt("Österreich"), txt("de"), txt("EUR")),
		L("menu.audit.ticket_out", mon(100000)), L("menu.audit.large_win", mon(200000)), L("menu.audit.credit", mon(100000)),
		L("menu.audit.bills", view.Moneys(500, 1000, 2000, 5000, 10000)),
		L("menu.audit.round", view.Millis(3000), key("menu.yes")),
		L("menu.audit.game", key("game.wishstar"), txt("wishstar-v3-5x3"), mon(25)),
		L("menu.audit.rtp", mon(25), view.Percent(95.8123)), L("menu.audit.rtp", mon(100), view.Percent(96.0512)),
		L("menu.audit.rtp_unknown", mon(2500))}}
	add("menu_audit", au, T0)

	lk := ws(view.ModeMenu)
	lk.Menu = &view.MenuPage{Title: "menu.link", Page: 3, Pages: 9, Lines: []view.MenuLine{
		L("menu.link.endpoint", txt("central-2.hall-7.lan:7443"), cnt(2), cnt(2)),
		L("menu.link.state", key("link.up")), L("menu.link.last_round", txt("1234"), view.Time(T0.Add(-90*time.Second))),
		L("menu.link.rtt", view.Duration(3817*time.Microsecond), view.LinkCall("outcome"), view.Time(T0.Add(-88*time.Second))),
		L("menu.link.offset", view.Duration(-12450*time.Microsecond), view.Time(T0.Add(-40*time.Minute))),
		L("menu.link.calls", cnt(18342), cnt(7)), L("menu.link.outbox", cnt(3))}}
	add("menu_link", lk, T0)

	sw := ws(view.ModeMenu)
	sw.Menu = &view.MenuPage{Title: "menu.software", Page: 4, Pages: 9, Lines: []view.MenuLine{
		L("menu.software.version", txt("1.2.3")), L("menu.software.id", txt("sha256:9f2c4e1a77b0d3c2")),
		L("menu.software.verified"), L("menu.software.ledger", txt("led-4f1e"), txt("1042"), txt("5b2e93a0c1d477e2")),
		L("menu.software.digest", txt("c0ffee1234abcd99")),
		L("menu.software.seed", txt("5e3a9c01d2b7f468")), L("menu.software.seeded", txt("8f14e45fceea167a5a36dedd4bea2543")),
		L("menu.software.seeded_more", txt("e1d7c0a9b3f28c6d4e5a7b9c0d1e2f3a")), L("menu.software.seeded_again"), L("menu.software.seed_enter")}}
	add("menu_software", sw, T0)

	// The technician enters a lab's seed, digit by digit (the sixth now).
	se := ws(view.ModeMenu)
	se.Menu = &view.MenuPage{Title: "menu.software", Page: 4, Pages: 9, Lines: append(append([]view.MenuLine(nil), sw.Menu.Lines[:5]...),
		L("menu.software.seed_entry", txt("01234[5]0000000000"), cnt(6), cnt(16)), L("menu.software.seed_entry_help")),
		Hint: "menu.hint.seed"}
	add("menu_software_seed", se, T0)

	cf := ws(view.ModeMenu)
	cf.Menu = &view.MenuPage{Title: "menu.config", Page: 5, Pages: 9, Lines: []view.MenuLine{
		L("menu.config.market", txt("at"), txt("Österreich")), L("menu.config.language", txt("de"), txt("EUR")),
		L("menu.config.terminal", txt("cab-1")), L("menu.config.site", txt("hall-7"), txt("Herna U Nádraží")),
		L("menu.config.ticket_out", mon(100000)), L("menu.config.large_win", mon(200000)), L("menu.config.credit", mon(100000)),
		L("menu.config.min_round", view.Millis(3000)), L("menu.config.volume", cnt(60)), L("menu.config.volume_set"),
		L("menu.config.time", view.Time(T0)), L("menu.config.time_edit", view.Time(T0.Add(59*time.Minute))), L("menu.config.time_help"), L("menu.config.time_central")},
		Hint: "menu.hint.time"}
	add("menu_config", cf, T0)

	tp := ws(view.ModeMenu)
	tp.Menu = &view.MenuPage{Title: "menu.test", Page: 8, Pages: 9, Lines: []view.MenuLine{
		L("menu.test.devices"), L("menu.test.no_meters"), L("menu.test.start")}}
	add("menu_test", tp, T0)

	at := ws(view.ModeMenu)
	at.Menu = &view.MenuPage{Title: "menu.audit_ticket", Page: 12, Pages: 12, Lines: []view.MenuLine{
		L("menu.audit_ticket.holds"), L("menu.audit_ticket.collect"), L("menu.audit_ticket.state", key("docres.printed"))}}
	add("menu_audit_ticket", at, T0)

	// The player's game menu (Risk in idle), the cursor on Magic Stars.
	gm := ws(view.ModeMenu)
	gm.Lamps = lamps(view.BetMinus, view.BetPlus, view.Start, view.Stop)
	gm.Menu = &view.MenuPage{Title: "menu.games", Page: 1, Pages: 1, Lines: []view.MenuLine{
		L("menu.games.game", key("game.wishstar")), L("menu.games.game_on", key("game.magicstars")),
		L("menu.games.language", key("language."+lang)), L("menu.games.credit")}}
	add("menu_games", gm, T0)

	// A handpay waits for its receipt: the printer is out of paper, the
	// lockup stays and says why; with the key on, the attendant's page
	// offers the manual form. Before it, the attendant's PIN.
	hw := ws(view.ModeTilt) // the printer's fault comes before the lockup
	hw.Lockup = &view.Lockup{Kind: "handpay_win", Amount: 250000}
	hw.Round = sp.Round
	hw.Tower = "call"
	hw.Lamps = lamps()
	hw.Tilts = []string{"printer: paper out"}
	hw.TiltKinds = []string{"printer"}
	hw.TiltLines = []view.MenuLine{L("tiltd.fault", key("fault.paper_out"))}
	hw.Message, hw.MessageAmount = view.MsgHandpayWaitsPrinter, 250000
	add("lockup_handpay_waits_printer", hw, T0.Add(5*time.Second))
	hm := ws(view.ModeMenu)
	hm.Lamps = lamps()
	hm.Lockup = hw.Lockup
	hm.Message, hm.MessageAmount = view.MsgHandpayWaitsPrinter, 250000
	hm.Menu = &view.MenuPage{Title: "menu.handpay_printer", Lines: []view.MenuLine{
		L("menu.handpay.amount", mon(250000)), L("menu.handpay.waiting", txt("printer: paper out")),
		L("menu.handpay.manual"), L("menu.handpay.when_ready")}}
	add("menu_handpay_printer", hm, T0)
	hpin := ws(view.ModeMenu)
	hpin.Lamps = lamps()
	hpin.Lockup = hw.Lockup
	hpin.Menu = &view.MenuPage{Title: "menu.attendant_pin", Lines: []view.MenuLine{
		L("menu.handpay.amount", mon(250000)), L("menu.handpay.pin", txt("* * 3 _")),
		L("menu.handpay.pin_help"), L("menu.handpay.pin_cancel")}, Hint: "menu.hint.pin"}
	add("menu_attendant_pin", hpin, T0)
	// Check 36: the player's limits with what is left, the break coming,
	// and the break itself (information only).
	pl := func() *view.Player {
		return &view.Player{Name: "Jana Nováková", Limits: []view.PlayerLimit{
			{Kind: "bets_day", Set: true, Amount: 5000, Left: 3250}, {Kind: "bets_month"},
			{Kind: "loss_day", Set: true, Amount: 2000, Left: 1480}, {Kind: "loss_month", Set: true, Amount: 20000, Left: 18520}},
			BreakAt: T0.Add(4 * time.Minute), BreakUntil: T0.Add(19 * time.Minute), BreakCredit: "keep"}
	}
	mp := ms(view.ModeIdle)
	mp.Player = pl()
	add("ms_player_limits", mp, T0)
	mpw := ms(view.ModeIdle)
	mpw.Player = pl()
	mpw.Player.BreakWarning = true
	add("ms_player_break_warning", mpw, T0)
	mb := ms(view.ModeBreak)
	mb.Lamps = lamps()
	mb.Player = pl()
	mb.Player.InBreak = true
	add("ms_player_break", mb, T0)
	// Issue 19 at the cabinet: an excluded person's card refused (no
	// session, the reason on the status line), a bet refused at the daily
	// limit (nothing left), Austria's cooling-off (the credit paid out),
	// and the card reader lost in cz (no new game until it is back).
	mx := ms(view.ModeIdle)
	mx.Credit = 0
	mx.Message = view.MsgPlayer + "PLAYER_EXCLUDED"
	mx.Lamps = lamps()
	add("ms_player_excluded", mx, T0)
	ml := ms(view.ModeIdle)
	ml.Player = pl()
	ml.Player.Limits[0].Left = 0
	ml.Player.Limits[2].Left = 250
	ml.Message = view.MsgPlayer + "PLAYER_LIMIT"
	add("ms_player_limit_reached", ml, T0)
	wc := ws(view.ModeBreak)
	wc.Credit = 0
	wc.Lamps = lamps()
	wc.Player = &view.Player{Name: "Anna Huber", InBreak: true, BreakAt: T0.Add(-time.Minute), BreakUntil: T0.Add(4 * time.Minute), BreakCredit: "payout"}
	add("ws_player_cooling_off", wc, T0)
	mr := ms(view.ModeIdle)
	mr.Message = view.MsgBlocked + "card_reader"
	mr.Lamps = lamps(view.Collect)
	mr.Tower = "call" // the attendant must come (firmware/cabinet's tower)
	add("ms_card_reader_lost", mr, T0)
	out = append(out, PresentationFixtures(lang)...)
	return out
}

// PresentationFixtures are the win's presentation: a big and a mega win
// counting up, the free spins' and Lock & Spin's intro and total screens,
// the jackpot hits of both games, and the status line's messages where a
// round's win is still on screen.
func PresentationFixtures(lang string) []Fixture {
	ws := func(mode view.Mode) *view.Snapshot { return wsSnap(lang, mode) }
	ms := func(mode view.Mode) *view.Snapshot { return msSnap(lang, mode) }
	var out []Fixture
	add := func(name string, s *view.Snapshot, at time.Time) { out = append(out, Fixture{name, s, at}) }
	// banner sets step i's feature screen (or celebration) from its wins' end.
	banner := func(rd *view.Round, i int, celebrate bool) time.Time {
		tl := &rd.Timeline[i]
		from := tl.Wins.Add(time.Duration(len(rd.Steps[i].Wins)) * 700 * time.Millisecond)
		if celebrate {
			tl.Celebrate = from
			tl.End = from.Add(5 * time.Second)
			return from.Add(time.Second)
		}
		tl.Banner = from
		tl.End = from.Add(3 * time.Second)
		for k := i + 1; k < len(rd.Timeline); k++ {
			rd.Timeline[k] = Timeline(rd.Timeline[k-1].End) // the next step waits for the screen
		}
		return from.Add(time.Second)
	}

	// Big and mega wins: settled, counting up; the Win field half way.
	for _, c := range []struct {
		name   string
		screen [5][3]engine.Symbol
	}{
		{"ws_big_win", [5][3]engine.Symbol{{elf, jj, kk}, {elf, wild, qq}, {elf, tree, aa}, {elf, aa, bell}, {elf, ten, cane}}},    // 16×
		{"ws_mega_win", [5][3]engine.Symbol{{elf, elf, kk}, {elf, wild, qq}, {elf, tree, elf}, {elf, aa, bell}, {elf, ten, cane}}}, // 64×
	} {
		step := wsStep(engine.StepBase, wsScreen(c.screen), false, 100)
		bw := ws(view.ModeIdle)
		bw.Round = round(engine.WishStar, 100, T0, step)
		c := struct {
			name   string
			amount engine.Money
		}{c.name, step.Pay}
		bw.Win = c.amount
		start := T0.Add(5 * time.Second)
		tier := view.TierOf(c.amount, 100)
		d := map[view.WinTier]time.Duration{view.TierBig: 4 * time.Second, view.TierMega: 7 * time.Second}[tier]
		bw.CountUp = &view.CountUp{Round: bw.Round.Number, Amount: c.amount, Stake: 100, Start: start, End: start.Add(d), Tier: tier}
		add(c.name, bw, start.Add(d/2))
	}

	// Free spins won: the intro, then their total at the last one.
	trig := wsStep(engine.StepBase, wsScreen([5][3]engine.Symbol{
		{bonus, ten, aa}, {kk, jj, qq}, {bonus, bell, cane}, {tree, elf, qq}, {aa, ten, bonus}}), false, 100)
	trig.FreeSpinsWon = 10
	free := wsStep(engine.StepFree, WSBase, true, 100)
	free.FreeSpinsLeft = 0
	fi := ws(view.ModePresenting)
	fi.Round = round(engine.WishStar, 100, T0, trig, free)
	fi.Lamps = lamps()
	fi.Win = trig.Pay
	add("ws_free_intro", fi, banner(fi.Round, 0, false))
	ft := ws(view.ModePresenting)
	ft.Round = round(engine.WishStar, 100, T0, trig, free)
	ft.Lamps = lamps()
	ft.Win = trig.Pay + free.Pay
	add("ws_free_total", ft, banner(ft.Round, 1, false))

	// Lock & Spin: six stars trigger it, shown locked; it collects; the
	// Grand on a full screen is celebrated.
	var locked uint16
	lock := engine.Step{Kind: engine.StepLockSpin, RespinsLeft: 3}
	ltrig := engine.Step{Kind: engine.StepBase, Screen: wsScreen([5][3]engine.Symbol{
		{wstar, kk, qq}, {jj, wstar, ten}, {aa, bell, wstar}, {wstar, tree, jj}, {cane, wstar, wstar}})}
	for reel := range 5 {
		for row := range 3 {
			if ltrig.Screen[reel][row] == wstar {
				cell := reel*3 + row
				locked |= 1 << cell
				lock.StarValues[cell] = engine.Money((cell%4 + 1) * 100)
			}
		}
	}
	lock.Locked = locked
	lock.Screen = ltrig.Screen
	for reel := range 5 {
		for row := range 3 {
			if locked&(1<<(reel*3+row)) == 0 {
				lock.Screen[reel][row] = blank
			}
		}
	}
	li := ws(view.ModePresenting)
	li.Round = round(engine.WishStar, 100, T0, ltrig, lock)
	li.Lamps = lamps()
	add("ws_lock_intro", li, banner(li.Round, 0, false))
	last := lock
	last.RespinsLeft = 0
	for cell := range 15 {
		if locked&(1<<cell) != 0 {
			last.Wins = append(last.Wins, engine.Win{Kind: engine.WinStar, Cell: cell, Amount: last.StarValues[cell]})
			last.Pay += last.StarValues[cell]
		}
	}
	lt := ws(view.ModePresenting)
	lt.Round = round(engine.WishStar, 100, T0, ltrig, lock, last)
	lt.Lamps = lamps()
	lt.Win = last.Pay
	add("ws_lock_total", lt, banner(lt.Round, 2, false))

	grand := engine.Step{Kind: engine.StepLockSpin, Locked: 1<<15 - 1, Pay: 20000 + 1500,
		Wins: []engine.Win{{Kind: engine.WinJackpot, Jackpot: engine.Grand, Amount: 20000}, {Kind: engine.WinStar, Cell: 0, Amount: 1500}}}
	for cell := range 15 {
		grand.Screen[cell/3][cell%3] = wstar
		grand.StarValues[cell] = 100
	}
	wj := ws(view.ModePresenting)
	wj.Round = round(engine.WishStar, 100, T0, ltrig, grand)
	wj.Lamps = lamps()
	add("ws_jackpot_hit", wj, banner(wj.Round, 1, true))

	mstep := msStep(MSBase, 1<<0|1<<4|1<<8, 50)
	mj := ms(view.ModePresenting)
	mj.Round = round(engine.MagicStars, 50, T0, mstep)
	mj.Round.Jackpot = 1234567
	mj.Lamps = lamps()
	mj.Win = mstep.Pay
	add("ms_jackpot_hit", mj, banner(mj.Round, 0, true))

	// The status line after a round, its win still on screen: the
	// message has the line, the win's frames stay.
	base := wsStep(engine.StepBase, WSBase, false, 100)
	nr := ws(view.ModeIdle)
	nr.Round = round(engine.WishStar, 100, T0, base)
	nr.Win = base.Pay
	nr.Message = view.MsgNoteRefused
	add("msg_note_refused", nr, T0.Add(8*time.Second))
	ba := ms(view.ModeIdle)
	ba.Credit, ba.Bet = 30, 50
	ba.Lamps = lamps(view.BetMinus, view.BetPlus, view.Collect)
	ba.Message = view.MsgInsufficientCredit
	add("msg_bet_above_credit", ba, T0)
	cp := ws(view.ModeIdle)
	cp.Credit = 0
	cp.Round = nr.Round
	cp.Win = base.Pay
	cp.Lamps = lamps(view.BetMinus, view.BetPlus)
	cp.Message, cp.MessageAmount = view.MsgCashoutPaid, 2000
	add("msg_cashout_paid", cp, T0.Add(8*time.Second))
	return out
}

// RecallFixture is a recall page: a Wish Upon a Star game whose Lock &
// Spin respin is on the page, its final screen beside it.
func RecallFixture() *view.MenuPage {
	base := wsStep(engine.StepBase, WSBase, false, 100)
	lock := engine.Step{Kind: engine.StepLockSpin, RespinsLeft: 1}
	for reel := range 5 {
		for row := range 3 {
			lock.Screen[reel][row] = blank
			if (reel+row)%2 == 0 {
				lock.Screen[reel][row] = wstar
				lock.Locked |= 1 << (reel*3 + row)
				lock.StarValues[reel*3+row] = 200
			}
		}
	}
	lock.Pay = 1600
	v := &view.Recall{Index: 2, Count: 10, Number: 1234, Game: engine.WishStar, Status: "settled", Ended: T0.Add(-time.Hour),
		Bet: 100, Win: base.Pay + lock.Pay, Paid: base.Pay + lock.Pay, CreditBefore: 12000, CreditAfter: 12000 - 100 + base.Pay + lock.Pay,
		CashOut: 5000, Final: &lock, Step: 0, Steps: 2, StepGame: &base}
	return &view.MenuPage{Title: "menu.recall", Recall: v, Page: 3, Pages: 11,
		Lines: []view.MenuLine{view.Line("menu.recall.game", view.Text("1234"), view.Key("game.wishstar"), view.Key("round.settled"),
			view.Money(100), view.Money(0), view.Money(5000), view.Money(4900))}}
}

// InfoFixtures are the player's information pages: every page of both
// games, Wish Upon a Star at €0.50 (Austria's wording), Magic Stars at
// 50 Kč (the Czech one), with the RTP and maximum win from the engine's
// exact calculation (the PAR sheet's).
func InfoFixtures(lang string) []Fixture {
	var out []Fixture
	for _, g := range []struct {
		game     engine.GameID
		stake    engine.Money
		cur      money.Currency
		market   string
		helpline string
	}{
		{engine.WishStar, 50, eur, "at", "Spielsuchthilfe Wien: +43 1 544 13 57"},
		{engine.MagicStars, 50, czk, "cz", "Národní linka pro odvykání: 800 350 000"},
	} {
		inf := view.Info{Game: g.game, Stake: g.stake, MinAge: 18, RTPNote: true, Helpline: g.helpline}
		if eg, err := engine.Lookup(g.game); err == nil {
			if x, ok := eg.(engine.ExactRTPer); ok {
				if m, err := x.RTPByStake(); err == nil {
					inf.RTP, inf.RTPKnown = m[g.stake]
				}
			}
			if x, ok := eg.(engine.MaxWinner); ok {
				inf.MaxWin, _ = x.MaxWin(g.stake)
			}
		}
		for i, p := range view.InfoPages(g.game) {
			in := inf
			in.Page = i
			s := &view.Snapshot{Mode: view.ModeInfo, Market: g.market, Language: lang, Currency: g.cur, Game: g.game,
				Games: []engine.GameID{g.game}, Bet: g.stake, Credit: 2500, Info: &in, Tower: "off",
				Lamps: lamps(view.BetMinus, view.BetPlus, view.Collect, view.Start)}
			if l, _ := engine.LayoutOf(g.game); l.Jackpot == engine.ProgressiveJackpot {
				s.Jackpots = []view.Jackpot{{Name: "magicstars", Amount: 1234567}}
			}
			out = append(out, Fixture{"info_" + string(g.game) + "_" + string(p), s, T0})
		}
	}
	return out
}
