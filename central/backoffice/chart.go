package backoffice

import (
	"fmt"
	"html/template"
	"strings"
	"time"

	"github.com/polaris-vlt/polaris/central/reports"
)

// hourChart draws n hourly bars from since as inline SVG: charts without
// JavaScript or a vendored library. Colours come from the stylesheet
// (classes), so the dark theme applies.
func hourChart(buckets []reports.HourBucket, since time.Time, n int, val func(reports.HourBucket) int64, label string, isMoney bool) template.HTML {
	first := since.UnixNano() / int64(time.Hour)
	vals := make([]int64, n)
	for _, b := range buckets {
		if i := b.Hour - first; i >= 0 && i < int64(n) {
			vals[i] += val(b)
		}
	}
	var top int64 = 1
	for _, v := range vals {
		top = max(top, v)
	}
	const W, H, left, bottom, topPad = 720, 200, 56, 22, 10
	bw := float64(W-left-8) / float64(n)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" role="img" aria-label="%s">`, W, H, template.HTMLEscapeString(label))
	plotH := float64(H - bottom - topPad)
	for _, f := range []float64{0, 0.5, 1} {
		y := float64(topPad) + plotH*(1-f)
		v := int64(f * float64(top))
		txt := fmt.Sprint(v)
		if isMoney {
			txt = money(v)
		}
		fmt.Fprintf(&b, `<line class="grid" x1="%d" x2="%d" y1="%.1f" y2="%.1f"/><text class="axis" x="%d" y="%.1f" text-anchor="end">%s</text>`,
			left, W-8, y, y, left-6, y+4, txt)
	}
	for i, v := range vals {
		h := plotH * float64(v) / float64(top)
		x := float64(left) + float64(i)*bw
		fmt.Fprintf(&b, `<rect class="bar" x="%.1f" y="%.1f" width="%.1f" height="%.1f"><title>%s: %d</title></rect>`,
			x+1, float64(topPad)+plotH-h, bw-2, h, time.Unix(0, (first+int64(i))*int64(time.Hour)).UTC().Format("15:04"), v)
		if (n-1-i)%3 == 0 { // the current hour (the last bar) labelled
			fmt.Fprintf(&b, `<text class="axis" x="%.1f" y="%d" text-anchor="middle">%s</text>`, x+bw/2, H-6,
				time.Unix(0, (first+int64(i))*int64(time.Hour)).UTC().Format("15h"))
		}
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}
