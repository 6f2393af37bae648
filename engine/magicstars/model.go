package magicstars

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/polaris-vlt/polaris/engine"
)

// modelData is the math model: reel strips with their star-carrying cells
// and the 15/20/25 weights. Its SHA-256 is the model id.
//
//go:embed model/magicstars.json
var modelData []byte

// ModelData returns a copy of the embedded model file (for the PAR sheet).
func ModelData() []byte { return bytes.Clone(modelData) }

// Model is the parsed model file.
type Model struct {
	Game      string      `json:"game"`
	Version   string      `json:"version"`
	Reels     [][]string  `json:"reels"`     // left to right, each strip top to bottom, circular
	FreeSpins []FreeSpins `json:"freeSpins"` // MS-13
}

// FreeSpins is one outcome of the free-spin count draw (MS-13).
type FreeSpins struct {
	Count  int `json:"count"`
	Weight int `json:"weight"`
}

// Cell is one strip position.
type Cell struct {
	Sym  engine.Symbol
	Star bool // star-carrying (MS-11)
}

// ModelError refuses a malformed model file.
type ModelError struct{ Reason string }

func (e *ModelError) Error() string { return "magicstars: bad model: " + e.Reason }

// ParseModel reads and checks a model file and returns it with its strips
// decoded.
func ParseModel(data []byte) (*Model, [3][]Cell, error) {
	var m Model
	var strips [3][]Cell
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, strips, &ModelError{Reason: err.Error()}
	}
	if m.Game != string(engine.MagicStars) {
		return nil, strips, &ModelError{Reason: fmt.Sprintf("game %q", m.Game)}
	}
	if len(m.Reels) != 3 {
		return nil, strips, &ModelError{Reason: fmt.Sprintf("%d reels, want 3", len(m.Reels))}
	}
	for i, r := range m.Reels {
		if len(r) < 3 || len(r) > 1<<10 {
			return nil, strips, &ModelError{Reason: fmt.Sprintf("reel %d has %d stops", i+1, len(r))}
		}
		for j, name := range r {
			sym, star, err := ParseCell(name)
			if err != nil {
				return nil, strips, &ModelError{Reason: fmt.Sprintf("reel %d stop %d: %v", i+1, j, err)}
			}
			strips[i] = append(strips[i], Cell{Sym: sym, Star: star})
		}
	}
	// MS-13: the count is 15, 20 or 25, each with a positive weight.
	var counts []int
	for _, f := range m.FreeSpins {
		if f.Weight <= 0 || f.Weight > 1<<16 {
			return nil, strips, &ModelError{Reason: fmt.Sprintf("free-spin weight %d", f.Weight)}
		}
		counts = append(counts, f.Count)
	}
	if !slices.Equal(counts, []int{15, 20, 25}) {
		return nil, strips, &ModelError{Reason: fmt.Sprintf("free-spin counts %v, want [15 20 25]", counts)}
	}
	return &m, strips, nil
}

// Window returns the three cells of a strip shown at stop (the top row),
// wrapping around the end.
func Window(strip []Cell, stop int) [3]Cell {
	n := len(strip)
	return [3]Cell{strip[stop%n], strip[(stop+1)%n], strip[(stop+2)%n]}
}

// ModelIDOf is the hex SHA-256 of model data.
func ModelIDOf(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}
