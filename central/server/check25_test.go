package server_test

// Check 25 (standards.md §2): validation-number generation.
//
// Where numbers come from: only the central system draws them
// (server.NewValidationNumber, crypto/rand, at IssueVoucher). The cabinet
// holds no generator state, so a cabinet RAM clear cannot reset or repeat
// the generator (and its document numbers, by which it asks for vouchers, go
// on across a RAM clear: firmware/ledger TestCheck25NumbersGoOnAcrossARAMClear);
// it issues no voucher while the link is down (Collect is a
// cancel-credit handpay then), so there is no offline-issuance period and no
// seed. The vouchers table's unique number is the last guard: a drawn number
// already issued is drawn again (IssueVoucher's ON CONFLICT retry).
//
// Thresholds (each chosen so that a good generator fails a run with
// probability about 10⁻⁶ or less per statistic, the whole test below 10⁻⁴):
//   - duplicates among 10⁶ numbers: none. Sixteen random digits give 10¹⁶
//     values; the birthday bound puts a chance duplicate at
//     n²/(2·10¹⁶) = 5·10⁻⁵ per run.
//   - digit frequencies, each of the 16 random positions and all together:
//     χ² (9 degrees of freedom) < 46.0 (upper 10⁻⁶ quantile).
//   - adjacent digit pairs inside a number (15 per number): χ² (99 d.f.) < 181
//     (upper 10⁻⁶ quantile).
//   - serial correlation (Knuth, TAOCP 3.3.2 K) of the random parts of
//     successive numbers, as fractions of 10¹⁶: |C| < 0.005 (five standard
//     deviations of 1/√n at n = 10⁶).
// The same statistics are run on two bad generators (a counter, and digits
// with a 2 % bias towards 7) and must reject them: the test can fail.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/polaris-vlt/polaris/central/server"
)

const (
	chi2Digits9df  = 46.0
	chi2Pairs99df  = 181.0
	serialCorrMax  = 0.005
	check25Numbers = 1_000_000
)

// randomness holds the statistics of a stream of 16-digit random parts.
type randomness struct {
	n       int
	digits  [16][10]int
	pairs   [100]int
	npairs  int
	sumXY   float64 // serial correlation sums over successive values
	sumX    float64
	sumX2   float64
	first   float64
	prev    float64
	started bool
}

func (r *randomness) add(part string) {
	for i := 0; i < 16; i++ {
		r.digits[i][part[i]-'0']++
		if i > 0 {
			r.pairs[int(part[i-1]-'0')*10+int(part[i]-'0')]++
			r.npairs++
		}
	}
	v, _ := strconv.ParseUint(part, 10, 64)
	x := float64(v) / 1e16
	if !r.started {
		r.first, r.started = x, true
	} else {
		r.sumXY += r.prev * x
	}
	r.prev = x
	r.sumX += x
	r.sumX2 += x * x
	r.n++
}

func chi2(obs []int, total int) float64 {
	e := float64(total) / float64(len(obs))
	s := 0.0
	for _, o := range obs {
		d := float64(o) - e
		s += d * d / e
	}
	return s
}

// verdict returns the reasons r fails the thresholds, none if it passes.
func (r *randomness) verdict() []string {
	var bad []string
	var all [10]int
	for i := range r.digits {
		if c := chi2(r.digits[i][:], r.n); c >= chi2Digits9df {
			bad = append(bad, fmt.Sprintf("digit position %d: χ² = %.1f ≥ %.1f", i+1, c, chi2Digits9df))
		}
		for d, k := range r.digits[i] {
			all[d] += k
		}
	}
	if c := chi2(all[:], 16*r.n); c >= chi2Digits9df {
		bad = append(bad, fmt.Sprintf("all digits: χ² = %.1f ≥ %.1f", c, chi2Digits9df))
	}
	if c := chi2(r.pairs[:], r.npairs); c >= chi2Pairs99df {
		bad = append(bad, fmt.Sprintf("adjacent digit pairs: χ² = %.1f ≥ %.1f", c, chi2Pairs99df))
	}
	// Knuth's serial correlation, cyclic (the last value pairs with the first).
	n := float64(r.n)
	sxy := r.sumXY + r.prev*r.first
	c := (n*sxy - r.sumX*r.sumX) / (n*r.sumX2 - r.sumX*r.sumX)
	if math.Abs(c) >= serialCorrMax || math.IsNaN(c) {
		bad = append(bad, fmt.Sprintf("serial correlation %.5f, |C| ≥ %.3f", c, serialCorrMax))
	}
	return bad
}

func TestCheck25ValidationNumbersUniqueAndUnpredictable(t *testing.T) {
	n := check25Numbers
	if testing.Short() {
		n = 100_000
	}
	seen := make(map[uint64]struct{}, n)
	var r randomness
	for i := 0; i < n; i++ {
		v, err := server.NewValidationNumber()
		if err != nil {
			t.Fatal(err)
		}
		// 18 digits: type digit 0 (cashable), 16 random digits, Luhn check digit.
		if len(v) != 18 || v[0] != '0' || !server.ValidNumber(v) {
			t.Fatalf("number %d: %q is not a cashable 18-digit number with its check digit", i, v)
		}
		part := v[1:17]
		k, err := strconv.ParseUint(part, 10, 64)
		if err != nil {
			t.Fatalf("number %d: %q: %v", i, v, err)
		}
		if _, dup := seen[k]; dup {
			t.Fatalf("number %d: %s drawn twice", i, v)
		}
		seen[k] = struct{}{}
		r.add(part)
	}
	if bad := r.verdict(); len(bad) > 0 {
		t.Errorf("the random part of %d validation numbers fails: %v", n, bad)
	}
	t.Logf("%d numbers, no duplicate; statistics within bounds", n)

	// The statistics must reject bad generators.
	const m = 200_000
	var counter, biased randomness
	rng := rand.New(rand.NewPCG(25, 25))
	for i := 0; i < m; i++ {
		counter.add(fmt.Sprintf("%016d", uint64(i)*49_999_999_999))
		b := make([]byte, 16)
		for j := range b {
			d := rng.IntN(10)
			if rng.IntN(50) == 0 {
				d = 7
			}
			b[j] = byte('0' + d)
		}
		biased.add(string(b))
	}
	if len(counter.verdict()) == 0 {
		t.Error("a counter passes the unpredictability statistics")
	}
	if len(biased.verdict()) == 0 {
		t.Error("digits biased 2 % towards 7 pass the unpredictability statistics")
	}
	t.Logf("rejected: the counter on %d statistics, the biased digits on %d", len(counter.verdict()), len(biased.verdict()))
}
