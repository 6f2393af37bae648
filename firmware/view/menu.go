package view

import (
	"strconv"
	"strings"
	"time"
)

// MenuLine is one line of a menu page: a catalogue key and its arguments.
// The display translates the key for the screen's language and formats
// each argument the market's way (money in its currency, counts grouped),
// so the firmware writes no English and no minor units on screen. A tab in
// the translated text starts the line's second column.
type MenuLine struct {
	Key  string
	Args []Arg
}

// ArgKind says how the display formats an argument.
type ArgKind uint8

const (
	ArgText    ArgKind = iota // shown as it is: ids, digests, addresses, the log's own words
	ArgCount                  // a count, grouped by thousands
	ArgMoney                  // N minor units of the snapshot's currency
	ArgKey                    // a catalogue key, itself translated (a meter's name, a state)
	ArgTime                   // a wall-clock instant, "2006-01-02 15:04:05"
	ArgPercent                // N ten-thousandths of a per cent: 961234 is 96.1234 %
	ArgMillis                 // a duration of N milliseconds
	ArgMoneys                 // L, amounts in minor units, as a list
	ArgMicros                 // a signed duration of N microseconds, shown in ms to three decimals
)

// Arg is one argument of a MenuLine.
type Arg struct {
	Kind ArgKind
	S    string
	N    int64
	T    time.Time
	L    []int64
}

// Line is a menu line.
func Line(key string, args ...Arg) MenuLine { return MenuLine{Key: key, Args: args} }

func Text(s string) Arg     { return Arg{Kind: ArgText, S: s} }
func Count(n int64) Arg     { return Arg{Kind: ArgCount, N: n} }
func Money(minor int64) Arg { return Arg{Kind: ArgMoney, N: minor} }
func Key(k string) Arg      { return Arg{Kind: ArgKey, S: k} }
func Time(t time.Time) Arg  { return Arg{Kind: ArgTime, T: t} }
func Millis(ms int64) Arg   { return Arg{Kind: ArgMillis, N: ms} }

// Duration is a measured duration that may be under a millisecond or
// negative (a round trip on a LAN, a clock offset).
func Duration(d time.Duration) Arg { return Arg{Kind: ArgMicros, N: d.Microseconds()} }

// LinkCall is a call of the central link by its name (link.Stats.RTTCall:
// "outcome", "issue voucher"), as the catalogue key the display translates
// (link.call.outcome, link.call.issue_voucher): the name is the link's own
// English word, not the screen's.
func LinkCall(name string) Arg { return Key("link.call." + strings.ReplaceAll(name, " ", "_")) }

// Moneys is a list of amounts in minor units (the notes a market accepts).
func Moneys(minor ...int64) Arg { return Arg{Kind: ArgMoneys, L: minor} }

// Percent is an argument of p per cent, to four decimals.
func Percent(p float64) Arg {
	if p < 0 {
		return Arg{Kind: ArgPercent, N: int64(p*1e4 - 0.5)}
	}
	return Arg{Kind: ArgPercent, N: int64(p*1e4 + 0.5)}
}

// String is the line without a catalogue, the key then its arguments raw
// (money in minor units): for logs and tests, never for the screen.
func (l MenuLine) String() string {
	var b strings.Builder
	b.WriteString(l.Key)
	for _, a := range l.Args {
		b.WriteByte(' ')
		switch a.Kind {
		case ArgText, ArgKey:
			b.WriteString(a.S)
		case ArgTime:
			b.WriteString(a.T.Format("2006-01-02 15:04:05"))
		case ArgMoneys:
			for i, v := range a.L {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(strconv.FormatInt(v, 10))
			}
		default:
			b.WriteString(strconv.FormatInt(a.N, 10))
		}
	}
	return b.String()
}
