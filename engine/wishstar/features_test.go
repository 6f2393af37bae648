package wishstar

import (
	"math/bits"
	"slices"
	"testing"

	"github.com/polaris-vlt/polaris/engine"
)

var (
	base = &Default.c.base
	free = &Default.c.free
)

func fullWild(ri *reelInfo) bool { return ri.full }
func hasBonus(ri *reelInfo) bool { return ri.bonus == 1 && ri.stars == 0 }

// noDraw is a landing draw that lands nothing; landDraw one that lands.
func noDraw() int   { return Default.c.m.RespinLand.Range - 1 }
func landDraw() int { return 0 }

// fsStops: reels 1, 3, 5 on a Bonus, reels 2 and 4 quiet.
func fsStops(t *testing.T, rs *reelSet) []int {
	q := quiet(t, rs)
	return []int{stop(t, rs, 0, hasBonus), q[1], stop(t, rs, 2, hasBonus), q[3], stop(t, rs, 4, hasBonus)}
}

// TestWS4BonusWinsInPlay: a full-wild reel 2 draws one bonus win (its own
// step, never doubled); both reels draw two; the free-spins prize awards 10
// free spins.
func TestWS4BonusWinsInPlay(t *testing.T) {
	c := Default.c
	q := quiet(t, base)
	w2 := stop(t, base, 1, fullWild)
	w4 := stop(t, base, 3, fullWild)
	cash := prizeIndex(t, c.bonus, func(p *prize) bool { return p.units == 10*Unit })
	major := prizeIndex(t, c.bonus, func(p *prize) bool { return p.jackpot == engine.Major })
	fsIdx := prizeIndex(t, c.bonus, func(p *prize) bool { return p.freeSpins > 0 })

	r := play(t, 100, q[0], w2, q[2], q[3], q[4], prizeDraw(c.bonus, cash))
	if !slices.Equal(kinds(r), []engine.StepKind{engine.StepBase, engine.StepBonusWin}) {
		t.Fatalf("steps %v", kinds(r))
	}
	bw := r.Steps[1]
	if bw.BonusReel != 1 || len(bw.Wins) != 1 || bw.Wins[0].Kind != engine.WinInstant || bw.Wins[0].Amount != 1000 || bw.Pay != 1000 {
		t.Fatalf("10x instant at stake 100: %+v", bw)
	}
	if r.Total != r.Steps[0].Pay+1000 {
		t.Fatalf("total %d", r.Total)
	}

	r = play(t, 100, q[0], w2, q[2], w4, q[4], prizeDraw(c.bonus, major), prizeDraw(c.bonus, cash))
	if !slices.Equal(kinds(r), []engine.StepKind{engine.StepBase, engine.StepBonusWin, engine.StepBonusWin}) {
		t.Fatalf("two full reels: steps %v", kinds(r))
	}
	if r.Steps[1].BonusReel != 1 || r.Steps[2].BonusReel != 3 || r.Steps[1].Wins[0].Jackpot != engine.Major || r.Steps[1].Pay != 5000 {
		t.Fatalf("two bonus wins: %+v %+v", r.Steps[1], r.Steps[2])
	}

	// Free spins from the bonus win: 10 spins on the free set, doubled ways.
	qf := quiet(t, free)
	r = play(t, 100, cat([]int{q[0], w2, q[2], q[3], q[4], prizeDraw(c.bonus, fsIdx)}, repeat(10, qf))...)
	if r.Steps[1].FreeSpinsWon != 10 || r.Steps[1].FreeSpinsLeft != 10 || len(r.Steps) != 12 {
		t.Fatalf("free-spins bonus win: %d steps, %+v", len(r.Steps), r.Steps[1])
	}
	for _, s := range r.Steps[2:] {
		if s.Kind != engine.StepFree || s.Multiplier != 2 {
			t.Fatalf("free step %+v", s)
		}
	}
}

// TestWS5ScatterAwardsFreeSpins: three Bonus pay 1x and award 10 free spins
// played on the free-spin reel set.
func TestWS5ScatterAwardsFreeSpins(t *testing.T) {
	qf := quiet(t, free)
	r := play(t, 500, cat(fsStops(t, base), repeat(10, qf))...)
	s0 := r.Steps[0]
	if s0.FreeSpinsWon != 10 || s0.FreeSpinsLeft != 10 {
		t.Fatalf("base step %+v", s0)
	}
	if i := slices.IndexFunc(s0.Wins, func(w engine.Win) bool { return w.Kind == engine.WinScatter }); i < 0 || s0.Wins[i].Amount != 500 {
		t.Fatalf("scatter pay missing: %+v", s0.Wins)
	}
	if len(r.Steps) != 11 {
		t.Fatalf("%d steps, want 1 + 10", len(r.Steps))
	}
	for i, s := range r.Steps[1:] {
		if s.Kind != engine.StepFree || s.FreeSpinsLeft != 9-i {
			t.Fatalf("free spin %d: %+v", i, s)
		}
	}
}

// TestWS6FreeSpinsDoubledRetriggeredSameStake: in free spins pay-table wins
// are doubled (not bonus wins), spins retrigger, and the stake stays.
func TestWS6FreeSpinsDoubledRetriggeredSameStake(t *testing.T) {
	c := Default.c
	qf := quiet(t, free)
	retrig := fsStops(t, free)
	w2 := stop(t, free, 1, fullWild)
	cash := prizeIndex(t, c.bonus, func(p *prize) bool { return p.units == 10*Unit })
	// spin 1 retriggers, spin 2 has a full-wild reel 2 with the 10x instant.
	spin2 := []int{qf[0], w2, qf[2], qf[3], qf[4], prizeDraw(c.bonus, cash)}
	r := play(t, 200, cat(fsStops(t, base), retrig, spin2, repeat(18, qf))...)
	if len(r.Steps) != 1+20+1 {
		t.Fatalf("%d steps, want 22 (20 free spins and a bonus win)", len(r.Steps))
	}
	f1 := r.Steps[1]
	if f1.FreeSpinsWon != 10 || f1.FreeSpinsLeft != 19 {
		t.Fatalf("retrigger: %+v", f1)
	}
	i := slices.IndexFunc(f1.Wins, func(w engine.Win) bool { return w.Kind == engine.WinScatter })
	if i < 0 || f1.Wins[i].Amount != 2*200 {
		t.Fatalf("free-spin scatter not doubled: %+v", f1.Wins)
	}
	// The same screen evaluated as a free spin gives the same wins.
	ev := eval(t, f1.Screen, 200, true)
	if !slices.Equal(ev.Wins, f1.Wins) || ev.Total != f1.Pay {
		t.Fatalf("play %+v vs evaluate %+v", f1.Wins, ev.Wins)
	}
	bw := r.Steps[3]
	if bw.Kind != engine.StepBonusWin || bw.Pay != 10*200 {
		t.Fatalf("bonus win in free spins doubled or missing: %+v", bw)
	}
	if r.Stake != 200 {
		t.Fatal("stake changed")
	}
}

// starStops finds stops showing exactly want stars (>= 6) on a set, with
// no Bonus and no full-wild reel.
func starStops(t *testing.T, rs *reelSet, want int) []int {
	t.Helper()
	var out []int
	left := want
	for r := range 5 {
		best, bestN := -1, -1
		for i := range rs.info[r] {
			ri := &rs.info[r][i]
			n := int(ri.stars)
			if ri.bonus == 0 && !ri.full && n <= left && n > bestN {
				best, bestN = i, n
			}
		}
		out = append(out, best)
		left -= bestN
	}
	if left != 0 {
		t.Fatalf("cannot show %d stars", want)
	}
	return out
}

func starCells(rs *reelSet, stops []int) []int {
	var cells []int
	for r, s := range stops {
		for row := range 3 {
			if rs.info[r][s].star&(1<<row) != 0 {
				cells = append(cells, r*3+row)
			}
		}
	}
	return cells
}

// TestWS7WS8LockAndSpin: six stars start the feature at the same stake; the
// triggering spin's ways still pay but the feature shows no pay-table
// prizes; stars stay locked; a new star resets the respins to 3; three
// empty respins in a row end it; every prize is then collected (WS-8, WS-9).
func TestWS7WS8LockAndSpin(t *testing.T) {
	c := Default.c
	stops := starStops(t, base, 6)
	cells := starCells(base, stops)
	cashIdx := prizeIndex(t, c.stars, func(p *prize) bool { return p.units == 2*Unit })
	miniIdx := prizeIndex(t, c.stars, func(p *prize) bool { return p.jackpot == engine.Mini })
	var draws []int
	draws = append(draws, stops...)
	for i := range cells { // first star Mini, the rest 2x
		if i == 0 {
			draws = append(draws, prizeDraw(c.stars, miniIdx))
		} else {
			draws = append(draws, prizeDraw(c.stars, cashIdx)+i) // another value of the same prize
		}
	}
	empty := 15 - 6
	draws = append(draws, repeat(empty, []int{noDraw()})...) // respin 1: nothing
	// respin 2: the first empty cell lands
	draws = append(draws, landDraw())
	draws = append(draws, repeat(empty-1, []int{noDraw()})...)
	draws = append(draws, prizeDraw(c.stars, cashIdx))
	draws = append(draws, repeat(3*(empty-1), []int{noDraw()})...) // three empty respins
	r := play(t, 1000, draws...)

	want := []engine.StepKind{engine.StepBase, engine.StepLockSpin, engine.StepLockSpin, engine.StepLockSpin, engine.StepLockSpin, engine.StepLockSpin, engine.StepLockSpin}
	if !slices.Equal(kinds(r), want) {
		t.Fatalf("steps %v, want %v", kinds(r), want)
	}
	left := []int{3, 2, 3, 2, 1, 0}
	var prev uint16
	for i, s := range r.Steps[1:] {
		if s.RespinsLeft != left[i] {
			t.Errorf("step %d: respins left %d, want %d", i+1, s.RespinsLeft, left[i])
		}
		if s.Locked&prev != prev {
			t.Errorf("step %d unlocked a star", i+1)
		}
		prev = s.Locked
		for _, w := range s.Wins {
			if w.Kind == engine.WinWays || w.Kind == engine.WinScatter {
				t.Errorf("pay-table prize in Lock & Spin: %+v", w)
			}
		}
		if i < len(left)-1 && s.Pay != 0 {
			t.Errorf("step %d paid %d before the end", i+1, s.Pay)
		}
		if s.Multiplier != 0 {
			t.Errorf("Lock & Spin multiplied")
		}
	}
	if bits.OnesCount16(prev) != 7 {
		t.Fatalf("locked %d stars, want 7", bits.OnesCount16(prev))
	}
	last := r.Steps[len(r.Steps)-1]
	// Mini 20x + six stars of 2x, at EUR 10.
	if last.Pay != 20*1000+6*2*1000 || len(last.Wins) != 7 {
		t.Fatalf("collected %d in %d wins: %+v", last.Pay, len(last.Wins), last.Wins)
	}
	if last.Wins[0].Kind != engine.WinJackpot || last.Wins[0].Jackpot != engine.Mini || last.Wins[0].Cell != cells[0] {
		t.Fatalf("Mini star: %+v", last.Wins[0])
	}
	if r.Total != r.Steps[0].Pay+last.Pay {
		t.Fatalf("total %d != base %d + feature %d", r.Total, r.Steps[0].Pay, last.Pay)
	}
	// The triggering spin is an ordinary paid spin.
	ev := eval(t, r.Steps[0].Screen, 1000, false)
	if !ev.Triggers.LockAndSpin || ev.Total != r.Steps[0].Pay {
		t.Fatalf("trigger spin %+v vs %+v", r.Steps[0], ev)
	}
}

// TestWS9WS10GrandOnFifteen: all 15 positions with a star win the Grand
// (200x) on top of the 15 star prizes and end the feature at once; star
// prizes are cash up to 15x or Mini/Minor/Major (20/30/50x).
func TestWS9WS10GrandOnFifteen(t *testing.T) {
	c := Default.c
	stops := starStops(t, base, 6)
	majorIdx := prizeIndex(t, c.stars, func(p *prize) bool { return p.jackpot == engine.Major })
	minorIdx := prizeIndex(t, c.stars, func(p *prize) bool { return p.jackpot == engine.Minor })
	top := prizeIndex(t, c.stars, func(p *prize) bool { return p.units == 15*Unit })
	draws := slices.Clone(stops)
	draws = append(draws, repeat(6, []int{prizeDraw(c.stars, top)})...)
	draws = append(draws, repeat(9, []int{landDraw()})...)
	draws = append(draws, prizeDraw(c.stars, majorIdx), prizeDraw(c.stars, minorIdx))
	draws = append(draws, repeat(7, []int{prizeDraw(c.stars, top)})...)
	r := play(t, 25, draws...)
	last := r.Steps[len(r.Steps)-1]
	if len(r.Steps) != 3 || last.Locked != allCells || last.RespinsLeft != 3 {
		t.Fatalf("steps %d, last %+v", len(r.Steps), last)
	}
	// 13 x 15x + Major 50x + Minor 30x + Grand 200x, at 25 cents.
	want := engine.Money((13*15 + 50 + 30 + 200) * 25)
	if last.Pay != want || len(last.Wins) != 16 {
		t.Fatalf("pay %d in %d wins, want %d in 16", last.Pay, len(last.Wins), want)
	}
	g := last.Wins[15]
	if g.Kind != engine.WinJackpot || g.Jackpot != engine.Grand || g.Amount != 200*25 {
		t.Fatalf("Grand: %+v", g)
	}
	// WS-9/WS-10 on the tables themselves.
	for _, p := range c.stars.prizes {
		if p.jackpot == engine.NoJackpot && (p.units < 1 || p.units > 15*Unit) || p.jackpot == engine.Grand {
			t.Errorf("star prize %+v breaks WS-9", p)
		}
	}
	for _, p := range c.bonus.prizes {
		if p.freeSpins == 0 && p.jackpot == engine.NoJackpot && (p.units < 1 || p.units > 10*Unit) || p.jackpot == engine.Grand {
			t.Errorf("bonus win %+v breaks WS-4", p)
		}
	}
	wantJ := map[engine.Jackpot]int64{engine.Mini: 20 * Unit, engine.Minor: 30 * Unit, engine.Major: 50 * Unit, engine.Grand: 200 * Unit}
	for j, f := range wantJ {
		if c.jackpots[j] != f {
			t.Errorf("jackpot %v = %d units, WS-10 says %d", j, c.jackpots[j], f)
		}
	}
}

// TestDecisionStarsInFreeSpins: stars land in free spins and Lock & Spin
// starts from a free spin; the free spins go on after it.
func TestDecisionStarsInFreeSpins(t *testing.T) {
	c := Default.c
	qf := quiet(t, free)
	stops := starStops(t, free, 6)
	cash := prizeIndex(t, c.stars, func(p *prize) bool { return p.units == 1*Unit })
	draws := cat(fsStops(t, base), stops, repeat(6, []int{prizeDraw(c.stars, cash)}), repeat(27, []int{noDraw()}), repeat(9, qf))
	r := play(t, 100, draws...)
	if r.Steps[1].Kind != engine.StepFree || r.Steps[2].Kind != engine.StepLockSpin {
		t.Fatalf("steps %v", kinds(r))
	}
	end := r.Steps[5]
	if end.Kind != engine.StepLockSpin || end.RespinsLeft != 0 || end.Pay != 2*6*100 || end.FreeSpinsLeft != 9 {
		t.Fatalf("feature end %+v (want 6 x 1x doubled = 1200, 9 spins left)", end)
	}
	if len(r.Steps) != 1+1+4+9 {
		t.Fatalf("%d steps", len(r.Steps))
	}
}

// TestWS6LockAndSpinInFreeSpinDoublesStarCash (WS-6, WS-10 and the WS
// decision): a Lock & Spin started in a free spin pays its star cash prizes
// doubled and its jackpots (Mini, Major, and the Grand on 15) at WS-10's
// fixed multiples; the same draws in the base game pay the cash once; the
// retired model 1 (kept for recall) pays the free-spin cash once, as its
// stored rounds were paid.
func TestWS6LockAndSpinInFreeSpinDoublesStarCash(t *testing.T) {
	const stake = 100
	c := Default.c
	idx := func(tb table, ok func(p *prize) bool) int { return prizeDraw(tb, prizeIndex(t, tb, ok)) }
	one := idx(c.stars, func(p *prize) bool { return p.units == 1*Unit && p.jackpot == engine.NoJackpot })
	top := idx(c.stars, func(p *prize) bool { return p.units == 15*Unit && p.jackpot == engine.NoJackpot })
	mini := idx(c.stars, func(p *prize) bool { return p.jackpot == engine.Mini })
	major := idx(c.stars, func(p *prize) bool { return p.jackpot == engine.Major })
	trig := []int{one, one, one, top, mini, major} // cash 3x1 + 15 = 18x, Mini 20x, Major 50x
	// lock plays the feature at stake from the six stars of rs, the prize
	// draws above, then (grand) all nine empty cells land on the first
	// respin, each a 1x star, or three empty respins.
	lock := func(rs *reelSet, grand bool) []int {
		d := cat(starStops(t, rs, 6), trig)
		if grand {
			return cat(d, repeat(9, []int{landDraw()}), repeat(9, []int{one}))
		}
		return cat(d, repeat(27, []int{noDraw()}))
	}
	lastLock := func(r *engine.Round) *engine.Step {
		var st *engine.Step
		for i := range r.Steps {
			if r.Steps[i].Kind == engine.StepLockSpin {
				st = &r.Steps[i]
			}
		}
		return st
	}
	sum := func(st *engine.Step) (cash, jackpots engine.Money) {
		for _, w := range st.Wins {
			switch w.Kind {
			case engine.WinStar:
				cash += w.Amount
			case engine.WinJackpot:
				jackpots += w.Amount
			}
		}
		return cash, jackpots
	}
	qf := quiet(t, free)
	for _, tc := range []struct {
		name           string
		g              *Game
		free, grand    bool
		cash, jp, mult engine.Money
	}{
		{"free spin", Default, true, false, 2 * 18 * stake, (20 + 50) * stake, 2},
		{"free spin, Grand", Default, true, true, 2 * (18 + 9) * stake, (20 + 50 + 200) * stake, 2},
		{"base game", Default, false, false, 18 * stake, (20 + 50) * stake, 1},
		{"base game, Grand", Default, false, true, (18 + 9) * stake, (20 + 50 + 200) * stake, 1},
		{"model 1, free spin", V1, true, false, 18 * stake, (20 + 50) * stake, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var draws []int
			if tc.free {
				draws = cat(fsStops(t, base), lock(free, tc.grand), repeat(9, qf))
			} else {
				draws = cat(lock(base, tc.grand))
			}
			if tc.g == V1 { // model 1 has other star weights: its own draws
				v1 := V1.c.stars
				vi := func(ok func(p *prize) bool) int { return prizeDraw(v1, prizeIndex(t, v1, ok)) }
				m := map[int]int{
					one:   vi(func(p *prize) bool { return p.units == 1*Unit && p.jackpot == engine.NoJackpot }),
					top:   vi(func(p *prize) bool { return p.units == 15*Unit && p.jackpot == engine.NoJackpot }),
					mini:  vi(func(p *prize) bool { return p.jackpot == engine.Mini }),
					major: vi(func(p *prize) bool { return p.jackpot == engine.Major }),
				}
				fs := len(fsStops(t, base)) + 5
				for i := fs; i < fs+6; i++ {
					draws[i] = m[draws[i]]
				}
			}
			src := &script{t: t, vals: draws}
			r := new(engine.Round)
			if err := tc.g.Play(src, stake, r); err != nil {
				t.Fatal(err)
			}
			src.done()
			st := lastLock(r)
			if st == nil {
				t.Fatalf("no Lock & Spin: %v", kinds(r))
			}
			cash, jp := sum(st)
			if cash != tc.cash || jp != tc.jp || st.Pay != tc.cash+tc.jp {
				t.Fatalf("star cash %d (want %d), jackpots %d (want %d), pay %d", cash, tc.cash, jp, tc.jp, st.Pay)
			}
			if engine.Money(max(st.Multiplier, 1)) != tc.mult {
				t.Errorf("step multiplier %d, want %d", st.Multiplier, tc.mult)
			}
			for _, w := range st.Wins {
				if w.Kind == engine.WinStar && st.StarValues[w.Cell] != w.Amount {
					t.Errorf("cell %d shows %d, pays %d", w.Cell, st.StarValues[w.Cell], w.Amount)
				}
			}
			if r.Total != st.Pay+r.Steps[0].Pay {
				t.Errorf("round total %d, base spin %d + feature %d", r.Total, r.Steps[0].Pay, st.Pay)
			}
			if _, err := engine.Mirror(tc.g, stake, recordTape(t, tc.g, draws), r); err != nil {
				t.Errorf("mirror: %v", err)
			}
		})
	}
}

// recordTape replays draws through g and returns the recorded tape.
func recordTape(t *testing.T, g *Game, draws []int) engine.Tape {
	rec := &engine.Recorder{Src: &script{t: t, vals: draws}}
	if err := g.Play(rec, 100, new(engine.Round)); err != nil {
		t.Fatal(err)
	}
	return rec.Tape
}

// TestDecisionFreeSpinLimit (D5): a round awards at most FreeSpinsMax free
// spins; an award beyond it adds only what is left, then nothing.
func TestDecisionFreeSpinLimit(t *testing.T) {
	M := Default.c.m.FreeSpinsMax
	retrig := fsStops(t, free)
	r := play(t, 100, cat(fsStops(t, base), repeat(M, retrig))...)
	won := 0
	for _, s := range r.Steps {
		won += s.FreeSpinsWon
	}
	if won != M || len(r.Steps) != 1+M {
		t.Fatalf("awarded %d in %d steps, limit %d", won, len(r.Steps), M)
	}
	if r.Steps[M].FreeSpinsWon != 0 || r.Steps[M].Pay == 0 {
		t.Fatalf("last spin: %+v", r.Steps[M])
	}
}
