package main

import (
	"fmt"
	"math"
	"strings"
)

// row is one sample of both processes.
type row struct {
	T      float64 // seconds since the start
	Rounds int64
	Rate   float64 // rounds/s since the previous sample
	Cab    procSample
	Cen    procSample
}

// The columns: the judged ones of both processes first (the layout of the
// CSVs before the live heap and the memory classes, which -replot still
// reads), then each process's live heap, then its memory classes.
var header = func() []string {
	h := []string{"t_s", "rounds", "rounds_per_s",
		"cabinet_rss_bytes", "cabinet_heap_inuse_bytes", "cabinet_goroutines", "cabinet_fds", "cabinet_sqlite_conns",
		"central_rss_bytes", "central_heap_inuse_bytes", "central_goroutines", "central_fds", "central_sqlite_conns",
		"cabinet_heap_live_bytes", "central_heap_live_bytes"}
	for _, p := range []string{"cabinet_", "central_"} {
		for _, c := range memColumns {
			h = append(h, p+c)
		}
	}
	return h
}()

// oldColumns is the width of a CSV written before the live heap.
const oldColumns = 13

func (r row) csv(central bool) string {
	f := []string{fmt.Sprintf("%.1f", r.T), fmt.Sprint(r.Rounds), fmt.Sprintf("%.2f", r.Rate)}
	blank := func(n int) {
		for range n {
			f = append(f, "")
		}
	}
	add := func(s procSample) {
		f = append(f, fmt.Sprint(s.RSS), fmt.Sprint(s.Heap), fmt.Sprint(s.Goroutines), fmt.Sprint(s.FDs), fmt.Sprint(s.SQLites))
	}
	add(r.Cab)
	if central {
		add(r.Cen)
	} else {
		blank(5)
	}
	f = append(f, fmt.Sprint(r.Cab.Live))
	if central {
		f = append(f, fmt.Sprint(r.Cen.Live))
	} else {
		blank(1)
	}
	for _, v := range r.Cab.Mem.fields() {
		f = append(f, fmt.Sprint(*v))
	}
	if central {
		for _, v := range r.Cen.Mem.fields() {
			f = append(f, fmt.Sprint(*v))
		}
	} else {
		blank(len(memColumns))
	}
	return strings.Join(f, ",")
}

// A series is one column judged for flatness. Limit is the growth allowed
// per 100 000 rounds (the soak length; a cabinet plays 5 000 rounds
// a day, so 100 000 rounds are three weeks and six months are 900 000):
// the heap 1 MiB (9 MiB in six months), resident memory 4 MiB (Go returns
// freed pages to the system lazily, so RSS is noisier than the live heap),
// goroutines and descriptors 10, SQLite connections 2 (counts jump by a
// few while a request or a print is under way, and a sample catches some of
// them; a leak of one per 10 000 rounds still fails a 20 000-round soak).
type series struct {
	Name  string
	Unit  string
	Scale float64 // the plot's unit per value unit
	Limit float64 // allowed growth per 100 000 rounds, in value units
	Get   func(r row) float64
}

func allSeries(central bool) []series {
	procs := []struct {
		name string
		get  func(r row) procSample
	}{{"cabinet", func(r row) procSample { return r.Cab }}}
	if central {
		procs = append(procs, struct {
			name string
			get  func(r row) procSample
		}{"central", func(r row) procSample { return r.Cen }})
	}
	var out []series
	for _, p := range procs {
		g := p.get
		out = append(out,
			series{p.name + " RSS", "MiB", 1.0 / (1 << 20), 4 << 20, func(r row) float64 { return float64(g(r).RSS) }},
			series{p.name + " heap in use", "MiB", 1.0 / (1 << 20), 1 << 20, func(r row) float64 { return float64(g(r).Heap) }},
			series{p.name + " live heap", "MiB", 1.0 / (1 << 20), 1 << 20, func(r row) float64 { return float64(g(r).Live) }},
			series{p.name + " goroutines", "", 1, 10, func(r row) float64 { return float64(g(r).Goroutines) }},
			series{p.name + " open fds", "", 1, 10, func(r row) float64 { return float64(g(r).FDs) }},
			series{p.name + " SQLite conns", "", 1, 2, func(r row) float64 { return float64(g(r).SQLites) }},
		)
	}
	return out
}

// verdict is a series' slope test after the warm-up.
type verdict struct {
	S           series
	Slope, Hi   float64 // least-squares growth per 100 000 rounds and the upper end of its 95 % interval
	First, Last float64 // fitted values at the warm-up's end and at the last sample
	Min, Max    float64 // after the warm-up
	Flat        bool
	N           int
}

// String is the verdict line.
func (v verdict) String() string {
	word := "flat"
	if !v.Flat {
		word = "GROWING"
	}
	unit := v.S.Unit
	if unit == "" {
		unit = "×1"
	}
	return fmt.Sprintf("%-26s %-7s slope %+9.3f %s/100k rounds (95%% upper %+.3f; limit %.3f), after warm-up %.2f..%.2f %s, %d samples",
		v.S.Name, word, v.Slope*v.S.Scale, unit, v.Hi*v.S.Scale, v.S.Limit*v.S.Scale, v.Min*v.S.Scale, v.Max*v.S.Scale, v.S.Unit, v.N)
}

// judge fits value = a + b·rounds by least squares over the samples after
// the warm-up. A series is flat when the upper end of the 95 % confidence
// interval of b is below its limit: the data must show the growth is
// small, not merely fail to show it is large. A series that did not change
// at all after the warm-up (a constant count) is flat.
func judge(rows []row, warmAt int, central bool) []verdict {
	var out []verdict
	for _, s := range allSeries(central) {
		out = append(out, fit(rows[warmAt:], s))
	}
	return out
}

// fit is one series' least-squares fit and verdict over post.
func fit(post []row, s series) verdict {
	v := verdict{S: s, N: len(post), Min: math.Inf(1), Max: math.Inf(-1)}
	var sx, sy float64
	for _, r := range post {
		x, y := float64(r.Rounds)/1e5, s.Get(r)
		sx += x
		sy += y
		v.Min, v.Max = math.Min(v.Min, y), math.Max(v.Max, y)
	}
	n := float64(len(post))
	mx, my := sx/n, sy/n
	var sxx, sxy float64
	for _, r := range post {
		x, y := float64(r.Rounds)/1e5, s.Get(r)
		sxx += (x - mx) * (x - mx)
		sxy += (x - mx) * (y - my)
	}
	if len(post) < 3 || sxx == 0 {
		v.Slope, v.Hi = math.NaN(), math.NaN()
		v.Flat = v.Max == v.Min
		return v
	}
	v.Slope = sxy / sxx
	a := my - v.Slope*mx
	var sse float64
	for _, r := range post {
		x, y := float64(r.Rounds)/1e5, s.Get(r)
		e := y - (a + v.Slope*x)
		sse += e * e
	}
	se := math.Sqrt(sse / (n - 2) / sxx)
	v.Hi = v.Slope + tQuantile975(len(post)-2)*se
	v.First = a + v.Slope*float64(post[0].Rounds)/1e5
	v.Last = a + v.Slope*float64(post[len(post)-1].Rounds)/1e5
	v.Flat = v.Max == v.Min || v.Hi < s.Limit
	return v
}

// tQuantile975 is Student's t at 97.5 % (a two-sided 95 % interval) for df
// degrees of freedom; past 30 the normal's 1.96 with a small correction.
func tQuantile975(df int) float64 {
	table := []float64{0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}
	if df < 1 {
		return math.Inf(1)
	}
	if df < len(table) {
		return table[df]
	}
	return 1.96 + 2.4/float64(df)
}
