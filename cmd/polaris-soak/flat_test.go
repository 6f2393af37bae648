package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rowsWith makes n samples, 50 rounds apart, whose cabinet heap is base plus
// perRound bytes a round plus noise.
func rowsWith(n int, base, perRound, noise float64) []row {
	rng := rand.New(rand.NewPCG(1, 2))
	var rows []row
	for i := 0; i < n; i++ {
		rounds := int64(i * 50)
		heap := base + perRound*float64(rounds) + noise*rng.NormFloat64()
		rows = append(rows, row{T: float64(i * 5), Rounds: rounds,
			Cab: procSample{RSS: 40 << 20, Heap: uint64(heap), Goroutines: 30, FDs: 30, SQLites: 4}})
	}
	return rows
}

func TestJudge(t *testing.T) {
	for _, c := range []struct {
		name     string
		perRound float64
		noise    float64
		flat     bool
	}{
		{"a flat heap with noise", 0, 100 << 10, true},
		{"8 bytes a round (0.8 MiB/100k, under the 1 MiB limit)", 8, 20 << 10, true},
		{"a leak of 100 bytes a round", 100, 100 << 10, false},
		{"a leak of 20 bytes a round (2 MiB/100k)", 20, 20 << 10, false},
	} {
		rows := rowsWith(400, 6<<20, c.perRound, c.noise) // 20 000 rounds
		vs := judge(rows, warmupIndex(rows, 0.25), false)
		heap := vs[1]
		if heap.S.Name != "cabinet heap in use" {
			t.Fatalf("series 1 is %q", heap.S.Name)
		}
		if heap.Flat != c.flat {
			t.Errorf("%s: judged flat=%v: %v", c.name, heap.Flat, heap)
		}
		for _, v := range []verdict{vs[0], vs[2], vs[3], vs[4]} { // constant series
			if !v.Flat {
				t.Errorf("%s: a constant series judged growing: %v", c.name, v)
			}
		}
	}
}

// A CSV the soak writes reads back with its live heap and memory classes,
// and one from before them (13 columns) still judges and plots.
func TestReplotReadsBothLayouts(t *testing.T) {
	rows := rowsWith(60, 6<<20, 0, 1<<10)
	for i := range rows {
		rows[i].Cab.Live, rows[i].Cab.Mem.Total, rows[i].Cab.Mem.Unused = 2<<20, 20<<20, uint64(i)<<10
		rows[i].Cen = rows[i].Cab
	}
	for _, c := range []struct {
		name string
		cols int
	}{{"now", len(header)}, {"before the live heap", oldColumns}} {
		dir := t.TempDir()
		var b strings.Builder
		b.WriteString(strings.Join(header[:c.cols], ",") + "\n")
		for _, r := range rows {
			f := strings.Split(r.csv(true), ",")
			if len(f) != len(header) {
				t.Fatalf("a row of %d columns, the header has %d", len(f), len(header))
			}
			b.WriteString(strings.Join(f[:c.cols], ",") + "\n")
		}
		p := filepath.Join(dir, "soak.csv")
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		if growing, err := replot(p, 0.25); err != nil || growing != 0 {
			t.Fatalf("%s: replot: %d growing, %v", c.name, growing, err)
		}
		if _, err := os.Stat(filepath.Join(dir, "soak.png")); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
	}
}
