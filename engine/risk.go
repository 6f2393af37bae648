package engine

import (
	"fmt"
	"reflect"
)

// Colour of a Risk card (MS-10).
type Colour uint8

const (
	Red Colour = iota + 1
	Black
)

func (c Colour) String() string {
	switch c {
	case Red:
		return "red"
	case Black:
		return "black"
	}
	return fmt.Sprintf("colour(%d)", uint8(c))
}

// Card is one card of a 52-card deck: suits hearts, diamonds (red), clubs,
// spades (black), 13 ranks each, so red and black are exactly even.
type Card uint8

// Colour of the card.
func (c Card) Colour() Colour {
	if c < 26 {
		return Red
	}
	return Black
}

// Suit 0..3 (hearts, diamonds, clubs, spades) and Rank 0..12 (2..A).
func (c Card) Suit() int { return int(c) / 13 }
func (c Card) Rank() int { return int(c) % 13 }

// RiskStep is one red/black gamble on the current win (MS-10).
type RiskStep struct {
	Step   int    `json:"step"` // 1 for the first step of a round's Risk
	Choice Colour `json:"choice"`
	Card   Card   `json:"card"`
	Won    bool   `json:"won"`
	Before Money  `json:"before"` // the win at stake
	After  Money  `json:"after"`  // 2*Before when won, else 0
}

// RiskError refuses a Risk step the rules do not allow.
type RiskError struct{ Reason string }

func (e *RiskError) Error() string { return "engine: risk refused: " + e.Reason }

// RiskAllowed reports whether a win may be gambled: it is positive and its
// double stays within the round cap (MS decision on MS-7), so a Risk win is
// never truncated and Risk stays an even bet.
func RiskAllowed(win, roundCap Money) bool { return win > 0 && 2*win <= roundCap }

// PlayRisk draws one card from src (one draw of range 52) and settles the
// gamble of win on choice.
func PlayRisk(src Source, step int, win Money, choice Colour, roundCap Money) (RiskStep, error) {
	if choice != Red && choice != Black {
		return RiskStep{}, &RiskError{Reason: fmt.Sprintf("choice %v is neither red nor black", choice)}
	}
	if step < 1 {
		return RiskStep{}, &RiskError{Reason: fmt.Sprintf("step %d is not positive", step)}
	}
	if !RiskAllowed(win, roundCap) {
		return RiskStep{}, &RiskError{Reason: fmt.Sprintf("a win of %d doubled exceeds the cap %d or is nothing", win, roundCap)}
	}
	card := Card(src.Intn(52))
	s := RiskStep{Step: step, Choice: choice, Card: card, Before: win}
	if card.Colour() == choice {
		s.Won, s.After = true, 2*win
	}
	return s, nil
}

// MirrorRisk replays a Risk step's one-draw tape and refuses the claimed
// step unless it is exactly reproduced.
func MirrorRisk(tape Tape, claimed RiskStep, roundCap Money) error {
	tr := NewTapeReader(tape)
	got, err := PlayRisk(tr, claimed.Step, claimed.Before, claimed.Choice, roundCap)
	if err != nil {
		return err
	}
	if err := tr.Err(); err != nil {
		return err
	}
	if got != claimed {
		p, a, b, _ := firstDiff("RiskStep", ptrVal(&claimed), ptrVal(&got))
		return &MismatchError{Path: p, Claimed: a, Replayed: b}
	}
	return nil
}

func ptrVal[T any](p *T) reflect.Value { return reflect.ValueOf(p).Elem() }
