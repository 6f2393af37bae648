// Command screenshots writes one PNG per display scene and language:
//
//	go run ./display/screenshots -o screenshots
//
// It draws the fixtures of display/render with the same software renderer
// the cabinet window blits, so the PNGs are what the cabinet shows.
package main

import (
	"flag"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"log"
	"os"
	"path/filepath"

	"github.com/polaris-vlt/polaris/display/i18n"
	"github.com/polaris-vlt/polaris/display/render"
)

func main() {
	out := flag.String("o", "screenshots", "output directory")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	r := render.New()
	n := 0
	for _, lang := range i18n.Languages {
		fx := render.Fixtures(lang)
		for i, f := range fx {
			frame := r.Render(f.Snap, f.At)
			if err := save(filepath.Join(*out, fmt.Sprintf("%02d_%s_%s.png", i+1, f.Name, lang)), frame); err != nil {
				log.Fatal(err)
			}
			n++
		}
		// the devkit window: cabinet screen, help overlay, lamp panel
		f := fx[1]
		win := image.NewRGBA(image.Rect(0, 0, render.W, render.H+render.PanelH))
		draw.Draw(win, image.Rect(0, 0, render.W, render.H), r.Render(f.Snap, f.At), image.Point{}, draw.Src)
		r.Help(win, lang)
		panel := image.NewRGBA(image.Rect(0, 0, render.W, render.PanelH))
		r.Devkit(panel, f.Snap, render.DevkitInfo{Notes: "acceptor ready · printer ready"}, f.At)
		draw.Draw(win, image.Rect(0, render.H, render.W, render.H+render.PanelH), panel, image.Point{}, draw.Src)
		if err := save(filepath.Join(*out, fmt.Sprintf("%02d_devkit_help_%s.png", len(fx)+1, lang)), win); err != nil {
			log.Fatal(err)
		}
		n++
		// the player's information pages, after the devkit window
		for i, f := range render.InfoFixtures(lang) {
			frame := r.Render(f.Snap, f.At)
			if err := save(filepath.Join(*out, fmt.Sprintf("%02d_%s_%s.png", len(fx)+2+i, f.Name, lang)), frame); err != nil {
				log.Fatal(err)
			}
			n++
		}
	}
	fmt.Printf("%d screenshots in %s\n", n, *out)
}

func save(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
