// Command sheet writes every symbol of both games to one PNG for review:
//
//	go run ./display/art/sheet -o screenshots/symbols.png
//
// The art is drawn by code at start-up (display/art), so this sheet is the
// pipeline's output, reproducible byte for byte.
package main

import (
	"flag"
	"image"
	"image/draw"
	"image/png"
	"log"
	"os"

	"github.com/polaris-vlt/polaris/display/art"
	"github.com/polaris-vlt/polaris/engine"
)

func main() {
	out := flag.String("o", "symbols.png", "output PNG")
	flag.Parse()
	const w, h = 230, 200
	games := []engine.GameID{engine.WishStar, engine.MagicStars}
	sheet := image.NewRGBA(image.Rect(0, 0, 8*w, 3*h))
	i := 0
	for _, g := range games {
		for _, s := range art.Symbols(g) {
			sp := art.Symbol(g, s, w, h)
			at := image.Pt((i%8)*w, (i/8)*h)
			draw.Draw(sheet, sp.Bounds().Add(at), sp, image.Point{}, draw.Src)
			i++
		}
	}
	f, err := os.Create(*out)
	if err != nil {
		log.Fatal(err)
	}
	if err := png.Encode(f, sheet); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}
