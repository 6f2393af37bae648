package render

import (
	"bytes"
	"errors"
	"image"
	"testing"

	"github.com/polaris-vlt/polaris/drivers/printer/internal/zbar"
)

func TestITFElementsFollowTheSymbology(t *testing.T) {
	b := Bars{Narrow: 2, Ratio: 3, Height: 10, Quiet: 10}
	el, err := ITFElements("12", b)
	if err != nil {
		t.Fatal(err)
	}
	// start 4 narrow; '1' bars W N N N W interleaved with '2' spaces N W N N W; stop W N N.
	want := []int{2, 2, 2, 2, 6, 2, 2, 6, 2, 2, 2, 2, 6, 6, 6, 2, 2}
	if len(el) != len(want) {
		t.Fatalf("got %v", el)
	}
	for i := range want {
		if el[i] != want[i] {
			t.Fatalf("element %d: got %v want %v", i, el, want)
		}
	}
	w, _ := ITFWidth("001234567890123456", b)
	// 18 digits × (3 narrow + 2 wide) + start 4N + stop (W + 2N) + 2 × 10N quiet.
	if want := 18*(3*2+2*6) + 4*2 + (6 + 4) + 2*10*2; w != want {
		t.Errorf("width %d want %d", w, want)
	}
	for _, bad := range []string{"", "123", "12a4"} {
		if _, err := ITFElements(bad, b); !errors.Is(err, ErrITF) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestITFRefusesToOverflowThePage(t *testing.T) {
	c := New(200, 100)
	if _, err := c.ITF(0, 0, "001234567890123456", DefaultBars, RotNone); err == nil {
		t.Fatal("a barcode wider than the page was drawn")
	}
}

// The drawn symbol decodes with zbarimg in every rotation, for both ratios.
func TestITFDecodesWithZbar(t *testing.T) {
	const digits = "001234567890123456"
	for _, tc := range []struct {
		bars Bars
		rot  Rotation
	}{
		{DefaultBars, RotNone},
		{Bars{Narrow: 2, Ratio: 2.5, Height: 60, Quiet: 10}, RotNone},
		{DefaultBars, RotDown},
		{DefaultBars, RotLeft},
		{DefaultBars, RotUp},
	} {
		c := New(520, 520)
		if _, err := c.ITF(40, 40, digits, tc.bars, tc.rot); err != nil {
			t.Fatal(err)
		}
		c.Text(40, 460, "text near the symbol", Style{Scale: 1})
		var buf bytes.Buffer
		if err := c.PNG(&buf); err != nil {
			t.Fatal(err)
		}
		got := zbar.Decode(t, buf.Bytes())
		if len(got) != 1 || got[0] != digits {
			t.Errorf("ratio %.1f rot %d: zbarimg read %q, want %s", tc.bars.Ratio, tc.rot, got, digits)
		}
	}
}

func TestTextInksThePageAndRotates(t *testing.T) {
	c := New(300, 300)
	r := c.Text(10, 10, "Částka 1 234 Kč", Style{Scale: 1})
	w, h := TextSize("Částka 1 234 Kč", Style{Scale: 1})
	if r.Dx() != w || r.Dy() != h || w == 0 {
		t.Fatalf("box %v size %dx%d", r, w, h)
	}
	if dark(c.Image(), r) == 0 {
		t.Fatal("no ink")
	}
	r2 := c.Text(10, 60, "edge", Style{Scale: 1, Rot: RotDown})
	if r2.Dx() != h || dark(c.Image(), r2) == 0 {
		t.Fatalf("rotated box %v", r2)
	}
}

func dark(img *image.Gray, r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if img.GrayAt(x, y).Y < 128 {
				n++
			}
		}
	}
	return n
}
