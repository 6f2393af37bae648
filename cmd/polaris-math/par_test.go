package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/par"
)

// TestCommittedSheets regenerates both PAR sheets as make par does (Magic
// Stars with the central jackpot configuration) and fails if a committed
// file differs: run `make par` after changing a model or the sheet format.
// It lives here because the engine may not read central's configuration.
func TestCommittedSheets(t *testing.T) {
	jc, err := jackpotConfig(filepath.Join("../..", JackpotFile))
	if err != nil {
		t.Fatal(err)
	}
	opt := par.DefaultOptions
	opt.Jackpot = jc
	for _, id := range []engine.GameID{engine.WishStar, engine.MagicStars} {
		s, err := par.Build(id, opt)
		if err != nil {
			t.Fatal(err)
		}
		var txt, js bytes.Buffer
		s.Text(&txt)
		if err := s.JSON(&js); err != nil {
			t.Fatal(err)
		}
		for name, got := range map[string][]byte{string(id) + ".txt": txt.Bytes(), string(id) + ".json": js.Bytes()} {
			want, err := os.ReadFile(filepath.Join("../../engine/par", name))
			if err != nil {
				t.Fatalf("%v (run make par)", err)
			}
			if !bytes.Equal(got, want) {
				gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
				for i := range min(len(gl), len(wl)) {
					if gl[i] != wl[i] {
						t.Fatalf("engine/par/%s is stale (run make par): line %d is\n%s\nwant\n%s", name, i+1, wl[i], gl[i])
					}
				}
				t.Fatalf("engine/par/%s is stale (run make par): %d lines, fresh %d", name, len(wl), len(gl))
			}
		}
		if s.ModelID == "" || s.RTP <= 0.9 || s.RTP >= 0.96 || len(s.RTPByStake) != len(s.Stakes) || len(s.Components) == 0 {
			t.Fatalf("%s: sheet lacks required figures: %+v", id, s)
		}
	}
}
