package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// replot judges and plots a soak.csv again (a soak still running, or one
// interrupted), writing soak.png beside it and printing the verdicts.
func replot(csvPath string, warmup float64) (growing int, err error) {
	f, err := os.Open(csvPath)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var rows []row
	central, old := false, false
	sc := bufio.NewScanner(f)
	for line := 0; sc.Scan(); line++ {
		if line == 0 {
			continue
		}
		c := strings.Split(sc.Text(), ",")
		if len(c) != len(header) && len(c) != oldColumns {
			return 0, fmt.Errorf("%s:%d: %d columns, want %d (or %d, before the live heap)", csvPath, line+1, len(c), len(header), oldColumns)
		}
		num := func(i int) float64 { v, _ := strconv.ParseFloat(c[i], 64); return v }
		ps := func(i int) procSample {
			return procSample{RSS: uint64(num(i)), Heap: uint64(num(i + 1)), Goroutines: int(num(i + 2)), FDs: int(num(i + 3)), SQLites: int(num(i + 4))}
		}
		r := row{T: num(0), Rounds: int64(num(1)), Rate: num(2), Cab: ps(3), Cen: ps(8)}
		if len(c) == len(header) {
			r.Cab.Live, r.Cen.Live = uint64(num(13)), uint64(num(14))
			for k, v := range r.Cab.Mem.fields() {
				*v = uint64(num(15 + k))
			}
			for k, v := range r.Cen.Mem.fields() {
				*v = uint64(num(15 + len(memColumns) + k))
			}
		} else {
			old = true
		}
		central = central || c[8] != ""
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	if len(rows) < 3 {
		return 0, fmt.Errorf("%s: %d samples", csvPath, len(rows))
	}
	warmAt := warmupIndex(rows, warmup)
	vs := judge(rows, warmAt, central)
	if old {
		// No live heap sampled: its verdicts say nothing.
		var keep []verdict
		for _, v := range vs {
			if !strings.HasSuffix(v.S.Name, " live heap") {
				keep = append(keep, v)
			}
		}
		vs = keep
	}
	mode := "separate central"
	if !central {
		mode = "embedded central"
	}
	png := filepath.Join(filepath.Dir(csvPath), "soak.png")
	if err := plot(png, rows, warmAt, vs, mode); err != nil {
		return 0, err
	}
	last := rows[len(rows)-1]
	fmt.Printf("soak: %s, %d rounds in %.0f s, %d samples, warm-up the first %d rounds; %s\n", mode, last.Rounds, last.T, len(rows), rows[warmAt].Rounds, png)
	return report(vs), nil
}

// report prints the verdict lines and returns how many series grew.
func report(vs []verdict) int {
	growing := 0
	for _, v := range vs {
		fmt.Println(v)
		if !v.Flat {
			growing++
		}
	}
	if growing > 0 {
		fmt.Printf("soak: %d series growing\n", growing)
	} else {
		fmt.Println("soak: every series flat")
	}
	return growing
}
