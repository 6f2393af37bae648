package par_test

// Check 34 for Wish Upon a Star: an independent calculation of the
// declared RTP per bet size.
//
// Independent: this file reads the model file itself (the base and free
// reel strips, the star-prize and bonus-win weights, the respin landing
// chance), takes the pay table, the jackpot multiples and the feature
// rules from GAME_RULES.md (WS-1..WS-10 and the Decisions) as literals,
// and evaluates them in its own code; it calls nothing of the engine's
// evaluator or of wishstar's exact calculation.
//
// Exact parts, by enumeration of every stop of every reel (the reels are
// independent, so a 5-reel expectation factors into per-reel ones): the
// base game's ways pays (WS-1..WS-3: E[Π ways] = Π E[matches per reel],
// times P(no match on the next reel)), its 3-Bonus scatter (WS-5), its
// bonus wins (WS-4), the chance of a ways win (the first three reels
// enumerated jointly) and of Lock & Spin. Lock & Spin (WS-7..WS-9) is a
// Markov chain on (stars locked, spins left) with each empty cell landing
// independently; free spins (WS-5, WS-6, at most 50 a round) are the
// expected number played (a recursion on spins played and awarded) times
// the value of one free spin on the free strips: ways and scatter doubled,
// bonus wins not, Lock & Spin star cash doubled, its jackpots not.
// Everything is float64 over exact integer counts: the declared figures
// are met within 1e-9.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/polaris-vlt/polaris/engine/wishstar"
)

// wsPays is GAME_RULES.md's pay table in 1/25 of the total stake, for 3, 4
// and 5 of a kind: 0.2/0.6/2, 0.4/1.2/3, 0.8/1.6/3.2, 1/2/3.2, 1/2/4, 1/3/8.
var wsPays = map[string][3]int64{
	"10": {5, 15, 50}, "J": {5, 15, 50}, "Q": {5, 15, 50}, "K": {5, 15, 50}, "A": {5, 15, 50},
	"BELL": {10, 30, 75}, "CANE": {20, 40, 80}, "CANDLE": {25, 50, 80}, "TREE": {25, 50, 100}, "ELF": {25, 75, 200},
}

// The other rules as literals, in 1/25 of the total stake where a value.
const (
	wsUnit        = 25   // the pay table's denominator
	wsScatter     = 25   // WS-5: 3 Bonus pay 1x
	wsAward       = 10   // WS-5: free spins per award
	wsFreeMult    = 2    // WS-6
	wsFreeMax     = 50   // Decision: at most 50 free spins a round
	wsLockTrigger = 6    // WS-7
	wsRespins     = 3    // WS-8
	wsGrand       = 5000 // WS-10: 200x
)

// wsJackpot is WS-10's Mini, Minor, Major in 1/25 of the stake.
var wsJackpot = map[string]int64{"MINI": 500, "MINOR": 750, "MAJOR": 1250}

type wsModel struct {
	base, free [5][]string
	stars      []wsPrize // star prizes (WS-9)
	bonus      []wsPrize // bonus wins (WS-4)
	land       float64   // chance an empty cell lands a star on a respin
}

type wsPrize struct {
	cash, jackpot int64 // units, jackpot units (one of them)
	free          bool  // a bonus win of 10 free spins
	weight        int64
}

func loadWSModel(t *testing.T, data []byte) wsModel {
	t.Helper()
	var raw struct {
		Reels  map[string][]string `json:"reels"`
		Prizes []struct {
			Units     int64  `json:"units"`
			Jackpot   string `json:"jackpot"`
			FreeSpins int    `json:"freeSpins"`
			Weight    int64  `json:"weight"`
		} `json:"starPrizes"`
		Bonus []struct {
			Units     int64  `json:"units"`
			Jackpot   string `json:"jackpot"`
			FreeSpins int    `json:"freeSpins"`
			Weight    int64  `json:"weight"`
		} `json:"bonusWins"`
		Land struct{ Range, Land int64 } `json:"respinLand"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	var m wsModel
	for _, set := range []struct {
		name string
		dst  *[5][]string
	}{{"base", &m.base}, {"free", &m.free}} {
		if len(raw.Reels[set.name]) != 5 {
			t.Fatalf("%s: %d reels", set.name, len(raw.Reels[set.name]))
		}
		for i, s := range raw.Reels[set.name] {
			set.dst[i] = strings.Fields(s)
		}
	}
	prize := func(units int64, jp string, fs int, w int64) wsPrize {
		p := wsPrize{weight: w, free: fs > 0}
		switch {
		case jp != "":
			v, ok := wsJackpot[jp]
			if !ok {
				t.Fatalf("unknown jackpot %q", jp)
			}
			p.jackpot = v
		case fs > 0:
			if fs != wsAward {
				t.Fatalf("a bonus win of %d free spins, WS-4 says 10", fs)
			}
		default:
			if units <= 0 || units > 15*wsUnit {
				t.Fatalf("cash prize %d units: WS-4/WS-9 say up to 10x/15x", units)
			}
			p.cash = units
		}
		return p
	}
	for _, p := range raw.Prizes {
		m.stars = append(m.stars, prize(p.Units, p.Jackpot, p.FreeSpins, p.Weight))
	}
	for _, p := range raw.Bonus {
		m.bonus = append(m.bonus, prize(p.Units, p.Jackpot, p.FreeSpins, p.Weight))
	}
	m.land = float64(raw.Land.Land) / float64(raw.Land.Range)
	return m
}

// window is the three cells a stop shows on a strip.
func window(strip []string, stop int) [3]string {
	return [3]string{strip[stop], strip[(stop+1)%len(strip)], strip[(stop+2)%len(strip)]}
}

// perReel counts, over every stop of a strip, what the window shows.
type perReel struct {
	matches  map[string]float64 // E[cells showing the symbol or a wild]
	none     map[string]float64 // P(no such cell)
	fullWild float64            // P(three wilds)
	bonus    []float64          // P(k Bonus)
	stars    []float64          // P(k Stars)
}

func countReel(strip []string) perReel {
	pr := perReel{matches: map[string]float64{}, none: map[string]float64{}, bonus: make([]float64, 4), stars: make([]float64, 4)}
	n := float64(len(strip))
	for stop := range strip {
		w := window(strip, stop)
		var bonus, stars, wilds int
		for _, c := range w {
			switch c {
			case "BONUS":
				bonus++
			case "STAR":
				stars++
			case "WILD":
				wilds++
			}
		}
		pr.bonus[bonus] += 1 / n
		pr.stars[stars] += 1 / n
		if wilds == 3 {
			pr.fullWild += 1 / n
		}
		for s := range wsPays {
			k := 0
			for _, c := range w {
				if c == s || c == "WILD" { // WS-3: a wild stands for every paying symbol
					k++
				}
			}
			pr.matches[s] += float64(k) / n
			if k == 0 {
				pr.none[s] += 1 / n
			}
		}
	}
	return pr
}

func convolve(a, b []float64) []float64 {
	out := make([]float64, len(a)+len(b)-1)
	for i, x := range a {
		for j, y := range b {
			out[i+j] += x * y
		}
	}
	return out
}

// wsSpin is one spin's figures on a set of strips, in stake units.
type wsSpin struct {
	ways, scatter, bonusWins, lockCash, lockJackpot float64 // expected values
	p3Bonus, bonusCount, pLock, pGrand              float64
	award                                           [4]float64 // P(0..3 awards of 10 free spins)
}

func spinOf(m wsModel, strips [5][]string) wsSpin {
	var reels [5]perReel
	for i := range reels {
		reels[i] = countReel(strips[i])
	}
	var s wsSpin
	for sym, pay := range wsPays { // WS-1: 3, 4, 5 on adjacent reels from the leftmost
		prod := reels[0].matches[sym]
		for k := 1; k < 5; k++ {
			prod *= reels[k].matches[sym]
			if k >= 2 {
				next := 1.0
				if k < 4 {
					next = reels[k+1].none[sym]
				}
				s.ways += float64(pay[k-2]) * prod * next
			}
		}
	}
	bonus := reels[0].bonus
	stars := reels[0].stars
	for i := 1; i < 5; i++ {
		bonus = convolve(bonus, reels[i].bonus)
		stars = convolve(stars, reels[i].stars)
	}
	for k := 3; k < len(bonus); k++ {
		s.p3Bonus += bonus[k]
	}
	s.scatter = s.p3Bonus * wsScatter
	// WS-4: a bonus win per reel full of wilds.
	var wsum, cash, jp, pFree float64
	for _, p := range m.bonus {
		wsum += float64(p.weight)
	}
	for _, p := range m.bonus {
		cash += float64(p.cash*p.weight) / wsum
		jp += float64(p.jackpot*p.weight) / wsum
		if p.free {
			pFree += float64(p.weight) / wsum
		}
	}
	s.bonusCount = reels[1].fullWild + reels[3].fullWild
	s.bonusWins = s.bonusCount * (cash + jp)
	// Awards of free spins: 3 Bonus, and each full-wild reel's bonus win.
	f2, f4 := reels[1].fullWild*pFree, reels[3].fullWild*pFree
	var fw [3]float64
	fw[0], fw[1], fw[2] = (1-f2)*(1-f4), f2*(1-f4)+(1-f2)*f4, f2*f4
	for k := range fw {
		s.award[k] += (1 - s.p3Bonus) * fw[k]
		s.award[k+1] += s.p3Bonus * fw[k]
	}
	// WS-7..WS-9: Lock & Spin from 6 stars.
	n, grand := lockChain(m.land)
	var psum, pcash, pjp float64
	for _, p := range m.stars {
		psum += float64(p.weight)
	}
	for _, p := range m.stars {
		pcash += float64(p.cash*p.weight) / psum
		pjp += float64(p.jackpot*p.weight) / psum
	}
	for k := wsLockTrigger; k < len(stars); k++ {
		s.pLock += stars[k]
		s.lockCash += stars[k] * n[k] * pcash
		s.lockJackpot += stars[k] * (n[k]*pjp + grand[k]*wsGrand)
		s.pGrand += stars[k] * grand[k]
	}
	for _, v := range []*float64{&s.ways, &s.scatter, &s.bonusWins, &s.lockCash, &s.lockJackpot} {
		*v /= wsUnit
	}
	return s
}

// lockChain: from k stars locked with 3 spins left, the expected stars at
// the end and the chance of all 15 (WS-8).
func lockChain(land float64) (stars, grand []float64) {
	type st struct{ n, g float64 }
	memo := map[[2]int]st{}
	var f func(k, left int) st
	f = func(k, left int) st {
		if k == 15 || left == 0 {
			return st{float64(k), b2f(k == 15)}
		}
		key := [2]int{k, left}
		if v, ok := memo[key]; ok {
			return v
		}
		empty := 15 - k
		var out st
		for m := 0; m <= empty; m++ {
			p := binom(empty, m) * math.Pow(land, float64(m)) * math.Pow(1-land, float64(empty-m))
			next := f(k, left-1) // no new star: one spin fewer
			if m > 0 {
				next = f(k+m, wsRespins) // new stars lock and reset the count
			}
			out.n += p * next.n
			out.g += p * next.g
		}
		memo[key] = out
		return out
	}
	stars, grand = make([]float64, 16), make([]float64, 16)
	for k := range 16 {
		v := f(k, wsRespins)
		stars[k], grand[k] = v.n, v.g
	}
	return stars, grand
}

func binom(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// freePlayed is the expected number of free spins a round plays, capped
// at 50: awards in the base spin start them, each free spin may award more.
func freePlayed(base, free wsSpin) float64 {
	memo := map[[2]int]float64{}
	var g func(played, awarded int) float64
	g = func(played, awarded int) float64 {
		if played >= awarded {
			return 0
		}
		key := [2]int{played, awarded}
		if v, ok := memo[key]; ok {
			return v
		}
		v := 1.0
		for x, p := range free.award {
			v += p * g(played+1, min(wsFreeMax, awarded+wsAward*x))
		}
		memo[key] = v
		return v
	}
	var e float64
	for x, p := range base.award {
		e += p * g(0, min(wsFreeMax, wsAward*x))
	}
	return e
}

// waysHit is P(a ways win in the base spin): the first three reels decide.
func waysHit(strips [5][]string) float64 {
	var hits, all float64
	for a := range strips[0] {
		w1 := window(strips[0], a)
		for b := range strips[1] {
			w2 := window(strips[1], b)
			for c := range strips[2] {
				w3 := window(strips[2], c)
				all++
				hit := false
				for _, s := range w1 {
					if _, ok := wsPays[s]; !ok {
						continue
					}
					in := func(w [3]string) bool {
						return w[0] == s || w[1] == s || w[2] == s || w[0] == "WILD" || w[1] == "WILD" || w[2] == "WILD"
					}
					hit = hit || (in(w2) && in(w3))
				}
				if hit {
					hits++
				}
			}
		}
	}
	return hits / all
}

func TestCheck34WishStarIndependentRTPPerStake(t *testing.T) {
	data, err := os.ReadFile("../wishstar/model/wishstar.json")
	if err != nil {
		t.Fatal(err)
	}
	var sheet struct {
		ModelID    string             `json:"modelId"`
		RTP        float64            `json:"rtp"`
		RTPByStake map[string]float64 `json:"rtpByStake"`
		Stakes     []int64            `json:"stakes"`
		Components []struct {
			Name string  `json:"name"`
			RTP  float64 `json:"rtp"`
		} `json:"components"`
		Features []struct {
			Name    string  `json:"name"`
			PerGame float64 `json:"perGame"`
		} `json:"features"`
	}
	b, err := os.ReadFile("wishstar.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sheet); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	if id := hex.EncodeToString(sum[:]); sheet.ModelID != id || wishstar.Default.ModelID() != id {
		t.Fatalf("model file %s, PAR sheet %s, game %s", id, sheet.ModelID, wishstar.Default.ModelID())
	}
	m := loadWSModel(t, data)
	base, free := spinOf(m, m.base), spinOf(m, m.free)
	played := freePlayed(base, free)
	freeValue := wsFreeMult*(free.ways+free.scatter) + free.bonusWins + wsFreeMult*free.lockCash + free.lockJackpot
	got := map[string]float64{
		"base ways": base.ways, "base scatter": base.scatter, "base bonus wins": base.bonusWins,
		"base Lock & Spin": base.lockCash + base.lockJackpot, "free spins": played * freeValue,
	}
	const tol = 1e-9
	total := 0.0
	for _, c := range sheet.Components {
		g, ok := got[c.Name]
		if !ok {
			t.Fatalf("the PAR sheet's component %q is not calculated here", c.Name)
		}
		if math.Abs(g-c.RTP) > tol {
			t.Errorf("%s: declared %.12f, calculated %.12f", c.Name, c.RTP, g)
		}
		total += g
		t.Logf("%-17s declared %.12f calculated %.12f", c.Name, c.RTP, g)
	}
	features := map[string]float64{
		"ways win in the base game (probability)":         waysHit(m.base),
		"3 Bonus in the base game (probability)":          base.p3Bonus,
		"bonus wins in the base game (expected per game)": base.bonusCount,
		"Lock & Spin in the base game (probability)":      base.pLock,
		"free spins (probability per game)":               1 - base.award[0],
		"Grand (expected per game)":                       base.pGrand + played*free.pGrand,
	}
	for _, f := range sheet.Features {
		if g, ok := features[f.Name]; ok {
			if math.Abs(g-f.PerGame) > tol {
				t.Errorf("%s: declared %.12g, calculated %.12g", f.Name, f.PerGame, g)
			}
			delete(features, f.Name)
		}
	}
	if len(features) != 0 {
		t.Errorf("not on the PAR sheet: %v", features)
	}
	// Per bet size: every pay is a whole number of cents at every stake
	// (the stakes are multiples of 0.25 EUR), so each stake returns the same.
	if len(sheet.Stakes) != len(wishstar.Default.Stakes()) {
		t.Fatalf("sheet stakes %v, game %v", sheet.Stakes, wishstar.Default.Stakes())
	}
	for i, stake := range wishstar.Default.Stakes() {
		if int64(stake) != sheet.Stakes[i] || stake%wsUnit != 0 {
			t.Fatalf("stake %d: sheet %d; not a whole number of pay units", stake, sheet.Stakes[i])
		}
		declared := sheet.RTPByStake[strconv.FormatInt(int64(stake), 10)]
		perStake := total * float64(int64(stake)/wsUnit*wsUnit) / float64(stake)
		if math.Abs(declared-perStake) > tol {
			t.Errorf("stake %d: declared %.12f, calculated %.12f", stake, declared, perStake)
		}
	}
	if math.Abs(sheet.RTP-total) > tol || math.Abs(total-0.952) > 0.0005 {
		t.Errorf("RTP declared %.12f, calculated %.12f; WS-11 says about 95.2 %%", sheet.RTP, total)
	}
	t.Logf("RTP declared %.12f calculated %.12f (free spins played per game %.9f)", sheet.RTP, total, played)
}
