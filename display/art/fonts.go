package art

import (
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
)

// Typeface is one of the display's three typefaces, all from the Go font
// family (BSD-3-Clause, see LICENSES.md).
type Typeface int

const (
	Regular Typeface = iota
	Bold
	Mono
)

var (
	fontsOnce sync.Once
	fonts     [3]*opentype.Font
)

func loadFonts() {
	for i, b := range [][]byte{goregular.TTF, gobold.TTF, gomono.TTF} {
		f, err := opentype.Parse(b)
		if err != nil {
			panic("art: bundled Go font does not parse: " + err.Error())
		}
		fonts[i] = f
	}
}

// Face is tf at px pixels (72 DPI, so size is pixels), hinted for crisp
// digits.
func Face(tf Typeface, px float64) font.Face {
	fontsOnce.Do(loadFonts)
	f, err := opentype.NewFace(fonts[tf], &opentype.FaceOptions{Size: px, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic("art: face: " + err.Error())
	}
	return f
}
