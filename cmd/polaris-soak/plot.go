package main

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"os"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// The plot is drawn with the standard library's image/png and the 7×13
// bitmap face of golang.org/x/image (already a dependency): six panels
// over time (RSS, heap in use, goroutines, open fds, SQLite connections,
// rounds/s), the cabinet in blue and the central system in red, the
// warm-up shaded, and after it each series' least-squares fit dashed.

var (
	white   = color.RGBA{255, 255, 255, 255}
	black   = color.RGBA{0, 0, 0, 255}
	grey    = color.RGBA{200, 200, 200, 255}
	warmBG  = color.RGBA{236, 236, 236, 255}
	blue    = color.RGBA{30, 90, 200, 255}
	red     = color.RGBA{200, 40, 40, 255}
	green   = color.RGBA{20, 140, 60, 255}
	darkRed = color.RGBA{170, 0, 0, 255}
)

const (
	panelW, panelH = 800, 480
	cols           = 2
)

type line struct {
	label string
	note  bool // its note is the panel's note of the same index, drawn in its colour
	col   color.RGBA
	ys    []float64
	fit   []float64 // NaN outside the fitted part
}

func plot(path string, rows []row, warmAt int, vs []verdict, mode string) error {
	byName := map[string]verdict{}
	central := false
	for _, v := range vs {
		byName[v.S.Name] = v
		central = central || strings.HasPrefix(v.S.Name, "central ")
	}
	// suffix names the judged series of a panel; the last two are not
	// judged: the throughput and the cabinet's memory classes.
	kinds := []struct{ title, unit, suffix string }{
		{"resident memory (RSS)", "MiB", "RSS"}, {"Go heap in use (after GC)", "MiB", "heap in use"},
		{"Go live heap (marked by the GC)", "MiB", "live heap"}, {"goroutines", "", "goroutines"},
		{"open file descriptors", "", "open fds"}, {"SQLite connections", "", "SQLite conns"},
		{"throughput", "rounds/s", ""}, {"cabinet memory classes (not judged)", "MiB", ""},
	}
	rowsN := (len(kinds) + cols - 1) / cols
	img := image.NewRGBA(image.Rect(0, 0, cols*panelW, rowsN*panelH+40))
	draw.Draw(img, img.Bounds(), image.NewUniform(white), image.Point{}, draw.Src)
	last := rows[len(rows)-1]
	text(img, 10, 24, black, fmt.Sprintf("polaris soak: %s, %d rounds in %.1f min, warm-up (shaded) the first %d rounds; blue cabinet, red central; dashed: least-squares fit after warm-up",
		mode, last.Rounds, last.T/60, rows[warmAt].Rounds))
	ts := make([]float64, len(rows))
	for i, r := range rows {
		ts[i] = r.T / 60
	}
	for k, kind := range kinds {
		var lines []line
		var notes []string
		switch {
		case kind.suffix != "":
			for p, col := range []color.RGBA{blue, red} {
				if p == 1 && !central {
					break
				}
				v, ok := byName[[]string{"cabinet", "central"}[p]+" "+kind.suffix]
				if !ok {
					continue
				}
				l := line{label: v.S.Name, col: col, ys: make([]float64, len(rows)), fit: make([]float64, len(rows))}
				a := v.First - v.Slope*float64(rows[warmAt].Rounds)/1e5
				for i, r := range rows {
					l.ys[i] = v.S.Get(r) * v.S.Scale
					l.fit[i] = math.NaN()
					if i >= warmAt && !math.IsNaN(v.Slope) {
						l.fit[i] = (a + v.Slope*float64(r.Rounds)/1e5) * v.S.Scale
					}
				}
				lines = append(lines, l)
				word := "flat"
				if !v.Flat {
					word = "GROWING"
				}
				unit := v.S.Unit
				if unit == "" {
					unit = "/100k rounds"
				} else {
					unit += "/100k rounds"
				}
				notes = append(notes, fmt.Sprintf("%s: %s, slope %+.3f %s (limit %.2f)", strings.Fields(v.S.Name)[0], word, v.Slope*v.S.Scale, unit, v.S.Limit*v.S.Scale))
			}
		case kind.unit == "rounds/s":
			l := line{label: "rounds/s", col: green, ys: make([]float64, len(rows))}
			for i, r := range rows {
				l.ys[i] = r.Rate
			}
			l.ys[0] = math.NaN()
			lines = append(lines, l)
			notes = append(notes, fmt.Sprintf("mean %.1f rounds/s", float64(last.Rounds)/last.T))
		default:
			lines, notes = classLines(rows, warmAt)
		}
		x0, y0 := (k%cols)*panelW, 40+(k/cols)*panelH
		panel(img, image.Rect(x0, y0, x0+panelW, y0+panelH), kind.title, kind.unit, ts, ts[warmAt], lines, notes)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func panel(img *image.RGBA, r image.Rectangle, title, unit string, xs []float64, warmX float64, lines []line, notes []string) {
	plotR := image.Rect(r.Min.X+70, r.Min.Y+30, r.Max.X-20, r.Max.Y-50-14*len(notes))
	text(img, r.Min.X+70, r.Min.Y+20, black, title)
	xmin, xmax := xs[0], xs[len(xs)-1]
	if xmax <= xmin {
		xmax = xmin + 1
	}
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for _, l := range lines {
		for _, y := range l.ys {
			if !math.IsNaN(y) {
				ymin, ymax = math.Min(ymin, y), math.Max(ymax, y)
			}
		}
	}
	if math.IsInf(ymin, 0) {
		ymin, ymax = 0, 1
	}
	// Counts and memory start at zero so a flat line looks flat; a range
	// that would squash the data into a sliver keeps its own span.
	if ymin > 0 && ymin < 3*(ymax-ymin)+1 {
		ymin = 0
	}
	if ymax-ymin < 1e-9 {
		ymax = ymin + 1
	}
	ymax += (ymax - ymin) * 0.08
	px := func(x float64) int { return plotR.Min.X + int((x-xmin)/(xmax-xmin)*float64(plotR.Dx()-1)) }
	py := func(y float64) int { return plotR.Max.Y - 1 - int((y-ymin)/(ymax-ymin)*float64(plotR.Dy()-1)) }
	draw.Draw(img, image.Rect(plotR.Min.X, plotR.Min.Y, px(warmX), plotR.Max.Y), image.NewUniform(warmBG), image.Point{}, draw.Src)
	for _, t := range ticks(ymin, ymax, 5) {
		y := py(t)
		hline(img, plotR.Min.X, plotR.Max.X, y, grey)
		text(img, r.Min.X+4, y+4, black, trimFloat(t))
	}
	for _, t := range ticks(xmin, xmax, 8) {
		x := px(t)
		vline(img, x, plotR.Min.Y, plotR.Max.Y, grey)
		text(img, x-10, plotR.Max.Y+16, black, trimFloat(t))
	}
	text(img, plotR.Max.X-60, plotR.Max.Y+30, black, "minutes")
	if unit != "" {
		text(img, r.Min.X+4, r.Min.Y+20, black, unit)
	}
	rect(img, plotR, black)
	for _, l := range lines {
		polyline(img, xs, l.ys, px, py, l.col, 0)
		if l.fit != nil {
			polyline(img, xs, l.fit, px, py, darker(l.col), 8)
		}
	}
	for i, n := range notes {
		c := black
		if strings.Contains(n, "GROWING") {
			c = darkRed
		}
		if i < len(lines) && lines[i].note {
			c = lines[i].col
		}
		text(img, r.Min.X+70, plotR.Max.Y+44+14*i, c, n)
	}
}

func polyline(img *image.RGBA, xs, ys []float64, px, py func(float64) int, c color.RGBA, dash int) {
	n := 0
	for i := 1; i < len(xs); i++ {
		if math.IsNaN(ys[i-1]) || math.IsNaN(ys[i]) {
			continue
		}
		segment(img, px(xs[i-1]), py(ys[i-1]), px(xs[i]), py(ys[i]), c, dash, &n)
	}
}

// segment draws a two-pixel line (Bresenham); dash > 0 leaves every other
// dash pixels out, counted along the whole polyline.
func segment(img *image.RGBA, x0, y0, x1, y1 int, c color.RGBA, dash int, n *int) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := sign(x1-x0), sign(y1-y0)
	e := dx + dy
	for {
		if dash == 0 || (*n/dash)%2 == 0 {
			img.SetRGBA(x0, y0, c)
			img.SetRGBA(x0, y0+1, c)
		}
		*n++
		if x0 == x1 && y0 == y1 {
			return
		}
		if e2 := 2 * e; e2 >= dy {
			e += dy
			x0 += sx
		} else {
			e += dx
			y0 += sy
		}
	}
}

func ticks(lo, hi float64, n int) []float64 {
	step := math.Pow(10, math.Floor(math.Log10((hi-lo)/float64(n))))
	for _, m := range []float64{1, 2, 5, 10} {
		if (hi-lo)/(step*m) <= float64(n) {
			step *= m
			break
		}
	}
	var out []float64
	for t := math.Ceil(lo/step) * step; t <= hi+step*1e-9; t += step {
		out = append(out, t)
	}
	return out
}

func trimFloat(f float64) string {
	s := fmt.Sprintf("%.2f", f)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		s = "0"
	}
	return s
}

func text(img *image.RGBA, x, y int, c color.Color, s string) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

func hline(img *image.RGBA, x0, x1, y int, c color.RGBA) {
	for x := x0; x < x1; x++ {
		img.SetRGBA(x, y, c)
	}
}

func vline(img *image.RGBA, x, y0, y1 int, c color.RGBA) {
	for y := y0; y < y1; y++ {
		img.SetRGBA(x, y, c)
	}
}

func rect(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	hline(img, r.Min.X, r.Max.X, r.Min.Y, c)
	hline(img, r.Min.X, r.Max.X, r.Max.Y-1, c)
	vline(img, r.Min.X, r.Min.Y, r.Max.Y, c)
	vline(img, r.Max.X-1, r.Min.Y, r.Max.Y, c)
}

func darker(c color.RGBA) color.RGBA { return color.RGBA{c.R / 2, c.G / 2, c.B / 2, 255} }

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

func sign(a int) int {
	switch {
	case a > 0:
		return 1
	case a < 0:
		return -1
	}
	return 0
}

// classLines are the cabinet's memory classes over time, each with its
// slope after the warm-up in the note (for reading, not judged): where the
// resident memory and the heap in use go when the live heap stays.
func classLines(rows []row, warmAt int) ([]line, []string) {
	classes := []struct {
		name string
		col  color.RGBA
		get  func(s procSample) float64
	}{
		{"objects", blue, func(s procSample) float64 { return float64(s.Mem.Objects) }},
		{"unused in spans", red, func(s procSample) float64 { return float64(s.Mem.Unused) }},
		{"free spans", green, func(s procSample) float64 { return float64(s.Mem.Free) }},
		{"stacks", color.RGBA{140, 60, 170, 255}, func(s procSample) float64 { return float64(s.Mem.Stacks) }},
		{"other+metadata+profile", color.RGBA{120, 120, 120, 255}, func(s procSample) float64 {
			return float64(s.Mem.Other + s.Mem.Metadata + s.Mem.Profile)
		}},
		{"anonymous RSS not Go's", color.RGBA{220, 140, 0, 255}, procSample.anonNotGo},
		{"binary's pages (RssFile)", color.RGBA{0, 150, 150, 255}, func(s procSample) float64 { return float64(s.Mem.RSSFile) }},
	}
	if rows[len(rows)-1].Cab.Mem.Total == 0 {
		return nil, []string{"not sampled (a CSV from before the memory classes)"}
	}
	var lines []line
	var notes []string
	for _, c := range classes {
		l := line{label: c.name, col: c.col, ys: make([]float64, len(rows)), note: true}
		for i, r := range rows {
			l.ys[i] = c.get(r.Cab) / (1 << 20)
		}
		lines = append(lines, l)
		v := fit(rows[warmAt:], series{Get: func(r row) float64 { return c.get(r.Cab) }})
		notes = append(notes, fmt.Sprintf("%s: %.2f..%.2f MiB after warm-up, slope %+.2f MiB/100k rounds", c.name,
			v.Min/(1<<20), v.Max/(1<<20), v.Slope/(1<<20)))
	}
	return lines, notes
}
