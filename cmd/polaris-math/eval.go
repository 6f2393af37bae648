package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/magicstars"
	"github.com/polaris-vlt/polaris/engine/wishstar"
)

type evalIn struct {
	Game     *string    `json:"game"`
	Stake    *int64     `json:"stake"`
	Screen   [][]string `json:"screen"`
	FreeSpin bool       `json:"freeSpin"`
}

type evalWin struct {
	Kind   string `json:"kind"`
	Symbol string `json:"symbol"`
	Count  int    `json:"count"`
	Ways   int    `json:"ways"`
	Line   int    `json:"line"`
	Amount int64  `json:"amount"`
}

type evalTriggers struct {
	FreeSpins   bool `json:"freeSpins"`
	LockAndSpin bool `json:"lockAndSpin"`
	BonusWins   int  `json:"bonusWins"`
	// StarCashMultiplier: Wish Upon a Star's Lock & Spin star cash factor
	// (1 base game, 2 free spin; 0 when the screen starts none).
	StarCashMultiplier int `json:"starCashMultiplier,omitempty"`
}

type evalOut struct {
	Total             int64        `json:"total"`
	Wins              []evalWin    `json:"wins"`
	Triggers          evalTriggers `json:"triggers"`
	FullScreenDoubled bool         `json:"fullScreenDoubled"`
}

// InputError is bad eval input.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

func cmdEval(stdin io.Reader, stdout, stderr io.Writer) int {
	out, err := evaluate(stdin)
	if err != nil {
		// One line, whatever the error says.
		fmt.Fprintf(stderr, "polaris-math eval: %s\n", strings.ReplaceAll(err.Error(), "\n", " "))
		return 2
	}
	b, _ := json.Marshal(out)
	fmt.Fprintf(stdout, "%s\n", b)
	return 0
}

func kindName(k engine.WinKind) string {
	switch k {
	case engine.WinWays:
		return "ways"
	case engine.WinLine:
		return "line"
	case engine.WinScatter:
		return "scatter"
	}
	return fmt.Sprintf("kind(%d)", k)
}

func evaluate(stdin io.Reader) (*evalOut, error) {
	data, err := io.ReadAll(io.LimitReader(stdin, 1<<20))
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var in evalIn
	if err := dec.Decode(&in); err != nil {
		return nil, &InputError{Msg: "input is not the expected JSON object: " + err.Error()}
	}
	if dec.More() {
		return nil, &InputError{Msg: "input holds more than one JSON value"}
	}
	if in.Game == nil || in.Stake == nil || in.Screen == nil {
		return nil, &InputError{Msg: `input needs "game", "stake" and "screen"`}
	}
	eval, ok := evaluators[engine.GameID(*in.Game)]
	if !ok {
		return nil, &engine.UnknownGameError{ID: engine.GameID(*in.Game)}
	}
	return eval(&in, engine.Money(*in.Stake))
}

// evaluators read each game's screen in its own cell names and evaluate it
// with the game's forced-screen evaluation.
var evaluators = map[engine.GameID]func(in *evalIn, stake engine.Money) (*evalOut, error){
	engine.MagicStars: evalMagicStars,
	engine.WishStar:   evalWishStar,
}

func evalMagicStars(in *evalIn, stake engine.Money) (*evalOut, error) {
	out := &evalOut{Wins: []evalWin{}}
	if len(in.Screen) != 3 {
		return nil, &InputError{Msg: fmt.Sprintf("magicstars screen has %d reels, want 3", len(in.Screen))}
	}
	var sc [3][3]magicstars.Cell
	for i, col := range in.Screen {
		if len(col) != 3 {
			return nil, &InputError{Msg: fmt.Sprintf("magicstars reel %d has %d rows, want 3", i+1, len(col))}
		}
		for row, name := range col {
			sym, star, err := magicstars.ParseCell(name)
			if err != nil {
				return nil, err
			}
			sc[i][row] = magicstars.Cell{Sym: sym, Star: star}
		}
	}
	ev, err := magicstars.Evaluate(sc, stake)
	if err != nil {
		return nil, err
	}
	out.Total = int64(ev.Pay)
	for _, w := range ev.Wins {
		out.Wins = append(out.Wins, evalWin{Kind: kindName(w.Kind), Symbol: magicstars.SymbolName(w.Symbol), Count: w.Count, Line: w.Line, Amount: int64(w.Amount)})
	}
	out.Triggers.FreeSpins = ev.FreeSpins
	out.FullScreenDoubled = ev.FullScreen
	return out, nil
}

func evalWishStar(in *evalIn, stake engine.Money) (*evalOut, error) {
	out := &evalOut{Wins: []evalWin{}}
	sc, err := wishstar.ParseScreen(in.Screen)
	if err != nil {
		return nil, err
	}
	ev, err := wishstar.Evaluate(sc, stake, in.FreeSpin)
	if err != nil {
		return nil, err
	}
	out.Total = int64(ev.Total)
	for _, w := range ev.Wins {
		out.Wins = append(out.Wins, evalWin{Kind: kindName(w.Kind), Symbol: wishstar.SymbolName(w.Symbol), Count: w.Count, Ways: w.Ways, Amount: int64(w.Amount)})
	}
	out.Triggers = evalTriggers{FreeSpins: ev.Triggers.FreeSpins, LockAndSpin: ev.Triggers.LockAndSpin, BonusWins: ev.Triggers.BonusWins,
		StarCashMultiplier: ev.Triggers.StarCashMultiplier}
	return out, nil
}
