package engine

import "fmt"

// Draw is one random value drawn uniformly from [0, Range).
type Draw struct {
	Value uint32 `json:"v"`
	Range uint32 `json:"n"`
}

// Tape is every draw of a round, in the order the game asked for them.
type Tape []Draw

// TapeProblem says what is wrong with a tape.
type TapeProblem uint8

const (
	TapeShort      TapeProblem = iota + 1 // the replay asked for more draws than the tape holds
	TapeLong                              // draws left over after the replay ended
	TapeRange                             // the replay asked for another range than the tape holds
	TapeOutOfRange                        // the tape holds a value outside its own range
)

func (p TapeProblem) String() string {
	switch p {
	case TapeShort:
		return "tape too short"
	case TapeLong:
		return "tape too long"
	case TapeRange:
		return "draw range differs"
	case TapeOutOfRange:
		return "draw out of range"
	}
	return "tape problem"
}

// TapeError names the first draw at which a replay and its tape disagree.
type TapeError struct {
	Problem   TapeProblem
	Index     int    // index of the first offending draw
	WantRange uint32 // the range the replay asked for (TapeShort, TapeRange)
	Draw      Draw   // the tape's draw at Index, where there is one
}

func (e *TapeError) Error() string {
	switch e.Problem {
	case TapeShort:
		return fmt.Sprintf("engine: %s: draw %d (range %d) missing", e.Problem, e.Index, e.WantRange)
	case TapeLong:
		return fmt.Sprintf("engine: %s: %v at draw %d was never asked for", e.Problem, e.Draw, e.Index)
	case TapeRange:
		return fmt.Sprintf("engine: %s: draw %d has range %d, the game asked for %d", e.Problem, e.Index, e.Draw.Range, e.WantRange)
	default:
		return fmt.Sprintf("engine: %s: draw %d is %d of %d", e.Problem, e.Index, e.Draw.Value, e.Draw.Range)
	}
}
