package polaris_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// The import rules of ARCHITECTURE.md's table of rooms, checked on what
// `go list` says every package imports (tests excluded: a test may reach
// further than its package). A rule broken names the package and the
// import that breaks it.

const module = "github.com/polaris-vlt/polaris/"

type pkg struct {
	ImportPath string
	Standard   bool
	Imports    []string
	Error      *struct{ Err string }
}

func goList(t *testing.T, args ...string) []pkg {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-e", "-json"}, args...)...)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	var ps []pkg
	for d := json.NewDecoder(&out); ; {
		var p pkg
		if err := d.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if p.Error != nil {
			t.Fatalf("go list: %s: %s", p.ImportPath, p.Error.Err)
		}
		ps = append(ps, p)
	}
	return ps
}

// project is an import path inside the module, without the module's
// prefix; ok is false for anything else.
func project(path string) (string, bool) {
	return strings.CutPrefix(path, module)
}

func standard(path string) bool { return !strings.Contains(strings.Split(path, "/")[0], ".") }

func under(path, room string) bool { return path == room || strings.HasPrefix(path, room+"/") }

// A room's rule: what its packages may import of the project. The most
// specific room of a package is its rule.
type room struct {
	room string
	may  []string // rooms of the project it may import (its own always)
	// stdOnly: nothing outside the project but the standard library.
	stdOnly bool
	// libs are the outside modules it may import (when set).
	libs []string
	// notOffCabinet: nothing of offCabinet (the devkit's and the tests').
	notOffCabinet bool
}

var rooms = []room{
	{room: "engine", stdOnly: true},
	// The deck's vocabulary and the injected clock are leaves every room
	// above the engine uses.
	{room: "deck", stdOnly: true},
	{room: "clock", stdOnly: true},
	// The unit of every amount: the market, the view, the printer's
	// documents and the tools name one Currency.
	{room: "money", stdOnly: true},
	// The languages, listed once: the display's catalogues, the printer's
	// documents, the market profiles and the back office name them.
	{room: "language", stdOnly: true},
	// The market profiles, one per market: the cabinet and the central
	// system (registered play) read the same rules. They name the
	// engine's games and stakes and a money Currency.
	{room: "market", may: []string{"engine", "money", "language"}, libs: []string{"github.com/pelletier/go-toml/v2"}},
	// The player card scheme: the card emulator answers with it, the
	// central system verifies with it.
	{room: "cardauth", stdOnly: true},
	// The children a program starts end with it (pcscd, PostgreSQL,
	// central nodes, a harness's cabinet): the drivers' emulators, the
	// tools and the tests' helpers start them through it.
	{room: "childproc", stdOnly: true},
	// internal/hosttools: the drivers' test helpers (zbar, pcscdtest) find
	// the programs they run through it; no driver links it.
	{room: "drivers", may: []string{"deck", "clock", "cardauth", "money", "language", "childproc"}},
	{room: "drivers/printer/internal/zbar", may: []string{"internal/hosttools"}},
	// The printer tests' event log waits through the tests' one poll helper.
	{room: "drivers/printer/internal/eventlog", may: []string{"drivers/printer", "internal/poll"}},
	{room: "drivers/cardreader/internal/pcscdtest", may: []string{"internal/hosttools", "drivers/cardreader/readeremu"}},
	{room: "board", may: []string{"drivers", "deck", "clock"}},
	{room: "central", may: []string{"engine", "cardauth", "language", "market"}},
	// The load test starts a throwaway PostgreSQL when given none
	// (make load-central-pg), as the store's tests do.
	{room: "central/loadtest", may: []string{"engine", "cardauth", "central", "internal/pgcluster", "childproc"}},
	// The tests' central system runs on a throwaway PostgreSQL too.
	{room: "central/internal/testenv", may: []string{"engine", "cardauth", "central", "internal/pgcluster", "internal/poll"}},
	// The cabinet program: the engine, the central system's client (not
	// the central system), drivers through their ports, boards.
	{room: "firmware", may: []string{"engine", "deck", "clock", "money", "language", "market", "central/link", "central/pki", "central/proto", "drivers", "board"}, notOffCabinet: true},
	// The cabinet's rules are written once for any device: it reaches the
	// drivers only through their protocol-neutral ports (never id003, tcl,
	// escpos, gpio), and the board's assembly is the program's, not its.
	{room: "firmware/cabinet", may: []string{"engine", "deck", "clock", "money", "language", "market", "central/link", "central/pki", "central/proto", "firmware", "drivers/acceptor", "drivers/printer", "drivers/cardreader"}, notOffCabinet: true},
	// The devkit build adds the embedded central system and the emulators.
	{room: "firmware/devkit", may: []string{"firmware", "engine", "deck", "clock", "money", "language", "market", "central", "drivers", "board"}},
	// The ledger stores what it is given: nothing of the central system.
	// The health checks' test rig: its waits are test deadlines.
	{room: "firmware/health/healthtest", may: []string{"firmware/health", "internal/poll"}},
	{room: "firmware/ledger", may: []string{"clock"}},
	{room: "firmware/view", may: []string{"engine", "deck", "money"}},
	{room: "firmware/scenario", may: []string{"engine", "deck"}},
	// The display draws snapshots: no board, no driver, no cabinet.
	{room: "display", may: []string{"firmware/view", "engine", "deck", "money", "language"}, libs: []string{"github.com/hajimehoshi/ebiten/v2", "golang.org/x/image"}},
}

func ruleOf(path string) *room {
	var best *room
	for i := range rooms {
		if under(path, rooms[i].room) && (best == nil || len(rooms[i].room) > len(best.room)) {
			best = &rooms[i]
		}
	}
	return best
}

// offCabinet are the packages of the project the cabinet binary must not
// link, each with its reason: the devkit's (device emulators, what only they
// use, the devkit's assembly) and the tests' (test doubles beside the
// package they stand in for, test rigs and helpers, harnesses). A package
// named like one (testNamed) must be listed: TestOffCabinetListed.
var offCabinet = map[string]string{
	"firmware/devkit":                       "devkit: the cabinet with the embedded central system and the emulators",
	"board/emulated":                        "devkit: starts the emulated devices and the in-memory GPIO",
	"drivers/id003/emulator":                "devkit: the ID-003 acceptor emulator",
	"drivers/printer/tclemu":                "devkit: the TCL printer emulator",
	"drivers/printer/escposemu":             "devkit: the ESC/POS printer emulator",
	"drivers/cardreader/cardemu":            "devkit: the player card emulator",
	"drivers/cardreader/readeremu":          "devkit: the private pcscd with the virtual reader",
	"drivers/ptypair":                       "devkit: the emulators' pseudo-terminal cable",
	"drivers/internal/jsonlog":              "devkit: the emulators' document log",
	"drivers/gpio/gpiotest":                 "test double (and the devkit's GPIO): in-memory lines",
	"drivers/printer/printertest":           "test double: a printer with scripted outcomes",
	"drivers/cardreader/cardreadertest":     "test double: a card reader driven by method calls",
	"clock/clocktest":                       "test double: a clock that moves when told",
	"drivers/cardreader/internal/pcscdtest": "test helper: readeremu for one test",
	"drivers/printer/internal/eventlog":     "test helper: a printer driver's event log",
	"drivers/printer/internal/zbar":         "test helper: decodes barcodes with zbarimg",
	"firmware/health/healthtest":            "test helper: stalls a loop on a manual clock",
	"firmware/ledger/crashtest":             "test harness: kills a process mid-transaction",
	"central/internal/testenv":              "test helper: the link's test bench",
	"internal/poll":                         "test helper: the tests' one wait",
	"internal/hosttools":                    "test helper: finds the programs tests run",
	"internal/pgcluster":                    "test helper: a throwaway PostgreSQL",
	"central/loadtest":                      "tool: the central system's load test",
	"cmd/polaris-loadtest":                  "tool: the central system's load test",
}

// testNamed: the name of a test double, test helper or emulator (gpiotest,
// httptest, tclemu, emulator, emulated, a *fake or *mock).
func testNamed(path string) bool {
	seg := path[strings.LastIndex(path, "/")+1:]
	for _, suffix := range []string{"test", "emu", "fake", "mock", "stub"} {
		if strings.HasSuffix(seg, suffix) {
			return true
		}
	}
	return seg == "emulator" || seg == "emulated"
}

// isOffCabinet: path is an offCabinet package or inside one.
func isOffCabinet(path string) bool {
	for p := range offCabinet {
		if under(path, p) {
			return true
		}
	}
	return false
}

// testingStd: a standard library package for tests only (testing and its
// subpackages, net/http/httptest, …); a program that links one links test
// code.
func testingStd(path string) bool {
	return under(path, "testing") || strings.HasSuffix(path, "test") && !strings.HasPrefix(path, "internal/")
}

// randomSources are the packages that draw random numbers; outcomes come
// from them on the central system.
var randomSources = []string{"math/rand", "math/rand/v2", "crypto/rand"}

// broken lists what p's imports break of its room's rule.
func broken(p pkg) []string {
	self, ok := project(p.ImportPath)
	if !ok {
		return nil
	}
	r := ruleOf(self)
	if r == nil {
		return nil
	}
	var bad []string
	for _, imp := range p.Imports {
		dep, inProject := project(imp)
		switch {
		case !inProject && standard(imp):
		case !inProject && r.stdOnly:
			bad = append(bad, self+" imports "+imp+" ("+r.room+": standard library only)")
		case !inProject && r.libs != nil && !anyUnder(imp, r.libs):
			bad = append(bad, self+" imports "+imp+" ("+r.room+" may import "+strings.Join(r.libs, ", ")+")")
		case !inProject:
		case r.notOffCabinet && isOffCabinet(dep):
			bad = append(bad, self+" imports "+dep+" ("+r.room+": "+offCabinet[dep]+"; not for the cabinet)")
		case !under(dep, r.room) && !anyUnder(dep, r.may):
			bad = append(bad, self+" imports "+dep+" ("+r.room+" may import "+mayList(r)+")")
		}
	}
	return bad
}

func anyUnder(path string, rooms []string) bool {
	for _, r := range rooms {
		if under(path, r) {
			return true
		}
	}
	return false
}

func mayList(r *room) string {
	if len(r.may) == 0 {
		return "only itself"
	}
	return strings.Join(r.may, ", ")
}

func TestImportRules(t *testing.T) {
	var bad []string
	for _, p := range goList(t, "-tags", "display", "./...") {
		bad = append(bad, broken(p)...)
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

// The cabinet binary as the package installs it (with the display) links
// no central system, nothing of the devkit's or the tests' (offCabinet, the
// testing package, a test double of a library) and no package of the
// project that imports a random source: it mirrors outcomes and has no code
// path that makes one (standards check 30). Libraries may (gRPC's backoff
// jitter).
func TestCabinetBinaryMakesNoOutcome(t *testing.T) {
	forbidden := []string{"central/server", "central/jackpot", "central/embedded", "engine/draw"}
	deps := goList(t, "-tags", "display", "-deps", "./cmd/polaris")
	seen := map[string]bool{}
	for _, p := range deps {
		self, ok := project(p.ImportPath)
		if testingStd(p.ImportPath) || !ok && !p.Standard && testNamed(p.ImportPath) {
			t.Errorf("cmd/polaris links %s (test code)", p.ImportPath)
		}
		if !ok {
			continue
		}
		seen[self] = true
		for _, f := range forbidden {
			if under(self, f) {
				t.Errorf("cmd/polaris links %s (the central system's)", self)
			}
		}
		if isOffCabinet(self) {
			t.Errorf("cmd/polaris links %s (%s)", self, offCabinet[self])
		}
		for _, imp := range p.Imports {
			for _, r := range randomSources {
				if imp == r {
					t.Errorf("cmd/polaris links %s, which imports %s (a random source)", self, imp)
				}
			}
		}
	}
	// The list is the real one: the cabinet, its ledger, its display.
	for _, must := range []string{"firmware/cabinet", "firmware/ledger", "display", "engine"} {
		if !seen[must] {
			t.Errorf("cmd/polaris does not link %s: the dependency list is not the cabinet's", must)
		}
	}
}

// Every package named like a test double, a test helper or an emulator is
// in offCabinet, so the cabinet binary's rule cannot miss a new one by its
// name; and every entry of offCabinet exists (a move updates the list).
func TestOffCabinetListed(t *testing.T) {
	exists := map[string]bool{}
	for _, p := range goList(t, "-tags", "display", "./...") {
		self, _ := project(p.ImportPath)
		exists[self] = true
		if testNamed(self) && !isOffCabinet(self) {
			t.Errorf("%s is named like a test double or an emulator but is not in offCabinet: list it with its reason (or rename it)", self)
		}
	}
	for p := range offCabinet {
		if !exists[p] {
			t.Errorf("offCabinet lists %s, which does not exist", p)
		}
	}
}
