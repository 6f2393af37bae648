package cabinet

import (
	"regexp"
	"strings"

	"github.com/polaris-vlt/polaris/firmware/view"
)

// A tilt's reason is the firmware's English words, kept as they are in the
// log and in the ledger (a restored tilt has only them). The screen shows
// the reason as a catalogue line instead, read back from those words: the
// device words ("paper out", "jam in acceptor") and each fixed reason are
// keys, the parts that vary (round numbers, amounts, a peer's error text)
// its arguments. A reason no pattern knows is shown as it is.

// tiltPattern reads one kind of reason: its submatches are the line's
// arguments, in order.
type tiltPattern struct {
	kind string
	re   *regexp.Regexp
	key  string
}

var tiltPatterns = []tiltPattern{
	{"printer", regexp.MustCompile(`^printer: communication lost$`), "tiltd.comm_lost"},
	{devAcceptor, regexp.MustCompile(`^acceptor: communication lost$`), "tiltd.comm_lost"},
	{"storage", regexp.MustCompile(`^storage low: (\d+) MiB free, below (\d+) MiB$`), "tiltd.storage_low"},
	{"storage", regexp.MustCompile(`^storage: cannot read free space: (.*)$`), "tiltd.storage_unreadable"},
	{devAcceptor, regexp.MustCompile(`^ticket stacked without validation$`), "tiltd.ticket_unvalidated"},
	{devAcceptor, regexp.MustCompile(`^ticket in stacker at power-up: check with the central system$`), "tiltd.ticket_at_power_up"},
	{tiltVoucher, regexp.MustCompile(`^voucher print not confirmed \((.*)\): printing it again$`), "tiltd.voucher_unconfirmed"},
	{tiltVoucher, regexp.MustCompile(`^voucher print interrupted by power loss: printing it again$`), "tiltd.voucher_power_loss"},
	{"central_round", regexp.MustCompile(`^central round differs from journal round (\d+): (.*)$`), "tiltd.central_round"},
	{"central_refused", regexp.MustCompile(`^central system refused round (\d+) \((.*)\): held, not refunded$`), "tiltd.central_refused"},
	{"game", regexp.MustCompile(`^open round of unknown game (.*)$`), "tiltd.unknown_game"},
	{"outcome", regexp.MustCompile(`^stored outcome of round unreadable: (.*)$`), "tiltd.outcome_unreadable"},
	{"outcome", regexp.MustCompile(`^outcome mismatch: (.*)$`), "tiltd.outcome_mismatch"},
	{"outcome", regexp.MustCompile(`^risk card mismatch$`), "tiltd.risk_mismatch"},
	{"outcome", regexp.MustCompile(`^risk card mismatch: (.*)$`), "tiltd.risk_mismatch_why"},
	{"ledger", regexp.MustCompile(`^ledger refused (.*)$`), "tiltd.ledger_refused"},
	{tiltSoftwareChanged, regexp.MustCompile(`^software changed — technician reset required \((.*) → (.*)\)$`), "tiltd.software_changed"},
	{"test", regexp.MustCompile(`^critical state changed in test mode$`), "tiltd.test_state_changed"},
}

// deviceFaults are the printer's and the acceptor's fault words
// (printer.Fault, acceptor.FaultKind), each a catalogue key "fault.<word>".
var deviceFaults = map[string]bool{
	"paper low": true, "paper out": true, "paper jam": true, "head up": true, "chassis open": true, "temperature": true,
	"head error": true, "voltage error": true, "cutter error": true, "system error": true, "template error": true, "offline": true,
	"stacker full": true, "stacker open": true, "jam in acceptor": true, "jam in stacker": true, "pause": true, "cheated": true, "failure": true,
}

// faultKey is the catalogue key of a device fault word.
func faultKey(word string) string { return "fault." + strings.ReplaceAll(word, " ", "_") }

// tiltDetail is a tilt's reason as the screen words it; the zero line
// (no key) when no pattern knows the reason.
func tiltDetail(kind, reason string) view.MenuLine {
	if kind == "printer" || kind == devAcceptor {
		if w, ok := strings.CutPrefix(reason, kind+": "); ok && deviceFaults[w] {
			return view.Line("tiltd.fault", view.Key(faultKey(w)))
		}
	}
	for _, p := range tiltPatterns {
		if p.kind != kind {
			continue
		}
		if m := p.re.FindStringSubmatch(reason); m != nil {
			var args []view.Arg
			for _, a := range m[1:] {
				args = append(args, view.Text(a))
			}
			return view.Line(p.key, args...)
		}
	}
	return view.MenuLine{}
}
