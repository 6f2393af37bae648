// Package scenario is the script language of timed inputs and checks a
// headless cabinet (firmware/devkit.Headless) is driven with, and chaos
// play: the tool of the cabinet tests, the crash harness and anyone
// reproducing a field problem. A script is plain text, one command a line,
// '#' starts a comment:
//
//	press start            # a deck button through the devkit GPIO (debounced)
//	hold stop 2s           # held for a while
//	note 1000              # insert a note of this value (minor units)
//	ticket last            # insert the last voucher the printer printed
//	printer take           # the player takes the ticket from the printer's chute
//	ticket 123456789012345678
//	door main open         # door main|logic|cashbox|acceptor open|close
//	key attendant on       # key attendant|technician on|off
//	game magicstars        # select a game
//	wait idle 10s          # until the screen's mode is idle and no win counts up (default 20s)
//	wait round             # until the round in play is over
//	wait ready             # until idle, no win counting up and nothing blocking a new game
//	sleep 500ms
//	expect credit 980      # credit|win|bet <minor units>
//	expect mode idle
//	expect meter coin_in 20
//	power cut              # the power goes: the cabinet restarts from its ledger
package scenario

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Step is one command of a script.
type Step struct {
	Line int
	Verb string
	Args []string
}

func (s Step) String() string {
	return fmt.Sprintf("line %d: %s %s", s.Line, s.Verb, strings.Join(s.Args, " "))
}

var arity = map[string][2]int{ // verb: min, max args
	"press": {1, 1}, "hold": {2, 2}, "note": {1, 1}, "ticket": {1, 1}, "door": {2, 2}, "key": {2, 2},
	"game": {1, 1}, "wait": {1, 2}, "sleep": {1, 1}, "expect": {2, 3}, "power": {1, 1}, "printer": {1, 1},
}

// Parse reads a script. Unknown commands and wrong argument counts are
// refused with the line they are on.
func Parse(r io.Reader) ([]Step, error) {
	var steps []Step
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		a, ok := arity[f[0]]
		if !ok {
			return nil, fmt.Errorf("scenario: line %d: unknown command %q", n, f[0])
		}
		if len(f)-1 < a[0] || len(f)-1 > a[1] {
			return nil, fmt.Errorf("scenario: line %d: %s takes %d to %d arguments, not %d", n, f[0], a[0], a[1], len(f)-1)
		}
		s := Step{Line: n, Verb: f[0], Args: f[1:]}
		if err := s.check(); err != nil {
			return nil, fmt.Errorf("scenario: line %d: %w", n, err)
		}
		steps = append(steps, s)
	}
	return steps, sc.Err()
}

func (s Step) check() error {
	switch s.Verb {
	case "hold", "sleep":
		_, err := time.ParseDuration(s.Args[len(s.Args)-1])
		return err
	case "wait":
		if len(s.Args) == 2 {
			_, err := time.ParseDuration(s.Args[1])
			return err
		}
	case "note":
		_, err := strconv.ParseInt(s.Args[0], 10, 64)
		return err
	case "door":
		if s.Args[1] != "open" && s.Args[1] != "close" {
			return fmt.Errorf("door %s: open or close, not %q", s.Args[0], s.Args[1])
		}
	case "key":
		if s.Args[1] != "on" && s.Args[1] != "off" {
			return fmt.Errorf("key %s: on or off, not %q", s.Args[0], s.Args[1])
		}
	case "printer":
		if s.Args[0] != "take" {
			return fmt.Errorf("printer %q: only 'printer take'", s.Args[0])
		}
	case "power":
		if s.Args[0] != "cut" {
			return fmt.Errorf("power %q: only 'power cut'", s.Args[0])
		}
	case "expect":
		if s.Args[0] == "meter" {
			if len(s.Args) != 3 {
				return fmt.Errorf("expect meter <name> <value>")
			}
			_, err := strconv.ParseInt(s.Args[2], 10, 64)
			return err
		}
		if s.Args[0] != "mode" {
			_, err := strconv.ParseInt(s.Args[1], 10, 64)
			return err
		}
	}
	return nil
}

// Target is what a script drives: a headless cabinet
// (firmware/devkit.Headless).
type Target interface {
	Do(ctx context.Context, s Step) error
}

// Run runs steps in order and stops at the first that fails.
func Run(ctx context.Context, t Target, steps []Step) error {
	for _, s := range steps {
		if err := t.Do(ctx, s); err != nil {
			return fmt.Errorf("scenario: %s: %w", s, err)
		}
	}
	return nil
}
