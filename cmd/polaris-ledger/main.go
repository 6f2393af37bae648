// Command polaris-ledger is the technician's tool for the cabinet's
// critical memory:
//
//	polaris-ledger dump -a DIR -b DIR [-json] [-recall N] [-events N]
//	    read-only dump of meters, recall, documents, events, configuration
//	    and the outbox; never writes to the copies (works with the cabinet
//	    down, on read-only media, or beside a running cabinet)
//	polaris-ledger crash-test -n KILLS [-seed S] [-dir D] [-parallel] [-v]
//	    the SIGKILL crash test; ends with "ledger crash test: N kills, D discrepancies"
//	polaris-ledger crash-child ...
//	    the process the crash test kills (internal)
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	// the games a market profile names must be known to load it (-market)
	_ "github.com/polaris-vlt/polaris/engine/games"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/ledger/crashtest"
	"github.com/polaris-vlt/polaris/market"
	"github.com/polaris-vlt/polaris/money"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "dump":
		err = dump(os.Args[2:], os.Stdout)
	case "crash-test":
		err = crashTest(os.Args[2:])
	case "crash-child":
		var cfg crashtest.ChildConfig
		if cfg, err = crashtest.ParseChildArgs(os.Args[2:]); err == nil {
			err = crashtest.RunChild(cfg, os.Stdout)
		}
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "polaris-ledger:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: polaris-ledger dump -a DIR -b DIR [-json] [-recall N] [-events N]\n"+
		"       polaris-ledger crash-test -n KILLS [-seed S] [-dir D] [-parallel] [-v]")
	os.Exit(2)
}

func crashTest(args []string) error {
	fs := flag.NewFlagSet("crash-test", flag.ExitOnError)
	n := fs.Int("n", 100, "number of kills")
	seed := fs.Int64("seed", 0, "random seed (0: from the clock)")
	dir := fs.String("dir", "", "work directory (default: a temporary one, removed after)")
	parallel := fs.Bool("parallel", false, "commit both copies at once")
	verbose := fs.Bool("v", false, "progress on stderr")
	fs.Parse(args)
	self, err := os.Executable()
	if err != nil {
		return err
	}
	var log io.Writer = io.Discard
	if *verbose {
		log = os.Stderr
	}
	var disc strings.Builder
	start := time.Now()
	res, err := crashtest.Run(crashtest.Config{Kills: *n, Seed: *seed, Dir: *dir, Parallel: *parallel,
		Log:   io.MultiWriter(log, &filterDiscrepancies{w: &disc}),
		Child: crashChild(self)})
	if err != nil {
		return err
	}
	if !*verbose && disc.Len() > 0 {
		fmt.Fprint(os.Stderr, disc.String())
	}
	keys := make([]string, 0, len(res.Findings))
	for k := range res.Findings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(os.Stderr, "%d transactions acknowledged; %d kills with one in flight (%d applied, %d not); %d replays; %d harness opens; %s (children %s, checks %s)\n",
		res.Acked, res.InFlight, res.Applied, res.InFlight-res.Applied, res.Replays, res.HarnessOpens, time.Since(start).Round(time.Second),
		res.ChildTime.Round(time.Second), res.CheckTime.Round(time.Second))
	for _, k := range keys {
		fmt.Fprintf(os.Stderr, "  %s: %d\n", k, res.Findings[k])
	}
	fmt.Printf("ledger crash test: %d kills, %d discrepancies\n", res.Kills, res.Discrepancies)
	if res.Discrepancies > 0 {
		os.Exit(1)
	}
	return nil
}

// filterDiscrepancies keeps the DISCREPANCY lines of the log.
type filterDiscrepancies struct{ w io.Writer }

func (f *filterDiscrepancies) Write(p []byte) (int, error) {
	if strings.Contains(string(p), "DISCREPANCY") {
		f.w.Write(p)
	}
	return len(p), nil
}

type dumpOut struct {
	Copies  [2]ledger.CopyInfo
	Chosen  string
	Verdict string
	Suspect bool
	Status  ledger.Status
	Credit  int64
	Meters  map[ledger.Scope]map[ledger.Meter]int64
	Open    *ledger.Round `json:",omitempty"`
	Recall  []ledger.Round
	Pending []ledger.Doc
	DocsIn  []ledger.DocRecord
	DocsOut []ledger.DocRecord
	Events  []ledger.Event
	Config  map[string]string
	Resume  ledger.Resume
	Outbox  int
	// Currency is the unit of every amount (the ledger's "currency"
	// configuration, or -market).
	Currency money.Currency
	// per copy, shown when the values are suspect
	CopyMeters [2]map[ledger.Scope]map[ledger.Meter]int64 `json:",omitempty"`
	CopyCredit [2]*int64                                  `json:",omitempty"`
}

func dump(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("dump", flag.ExitOnError)
	a := fs.String("a", "", "copy A directory")
	b := fs.String("b", "", "copy B directory")
	asJSON := fs.Bool("json", false, "JSON output")
	nRecall := fs.Int("recall", 10, "games to show (max 100)")
	nEvents := fs.Int("events", 50, "events to show (max 1000)")
	mkt := fs.String("market", "", "format amounts in this market's currency (default: the one the ledger records)")
	fs.Parse(args)
	if *a == "" || *b == "" {
		return fmt.Errorf("dump needs -a and -b")
	}
	in, err := ledger.Inspect(*a, *b)
	if err != nil {
		return err
	}
	d := dumpOut{Copies: in.Copies, Chosen: in.Chosen, Verdict: in.Verdict, Status: in.Status(),
		Recall: in.Recall(*nRecall), Pending: in.PendingDocs(), DocsIn: in.DocsIn(), DocsOut: in.DocsOut(),
		Events: in.Events(*nEvents), Config: in.ConfigAll(), Resume: in.Resume()}
	if d.Currency, err = currencyOf(*mkt, d.Config); err != nil {
		return err
	}
	d.Credit, d.Suspect = in.Credit()
	if d.Suspect {
		d.CopyMeters, d.CopyCredit = in.CopyMeters, in.CopyCredit
	}
	d.Meters, _ = in.AllMeters()
	if r, ok := in.OpenRound(); ok {
		d.Open = &r
	}
	for i := range d.DocsOut { // never show a full validation number
		d.DocsOut[i].Number = d.DocsOut[i].MaskedNumber()
	}
	if msgs, err := in.Pending(1 << 30); err == nil {
		d.Outbox = len(msgs)
	}
	if *asJSON {
		e := json.NewEncoder(w)
		e.SetIndent("", "  ")
		return e.Encode(d)
	}
	return writeText(w, d)
}

func writeText(w io.Writer, d dumpOut) error {
	p := func(format string, a ...any) { fmt.Fprintf(w, format+"\n", a...) }
	money := d.Currency.Format
	p("POLARIS LEDGER DUMP (read-only)")
	for _, c := range d.Copies {
		state := "GOOD"
		if !c.Valid {
			state = "BAD: " + c.Problem
		}
		p("copy %s  %s  transaction %d  %s", c.Name, c.Dir, c.Seq, state)
		if c.Marker != nil {
			p("  RAM-ERROR MARKER: %s", c.Marker.Reason)
		}
	}
	p("verdict: %s; values from copy %s", d.Verdict, d.Chosen)
	if d.Suspect {
		p("*** VALUES ARE SUSPECT: no verified copy ***")
	}
	p("ledger id %s, transaction %d, head %s", d.Status.LedgerID, d.Status.Seq, short(d.Status.Head))
	if !d.Status.InvariantOK {
		p("METER INVARIANT BROKEN: %s", d.Status.Invariant)
	}
	p("\nCREDIT %s", money(d.Credit))
	if d.Suspect {
		writeByCopy(p, d)
	}
	scopes := make([]string, 0, len(d.Meters))
	for s := range d.Meters {
		scopes = append(scopes, string(s))
	}
	sort.Slice(scopes, func(i, j int) bool {
		if (scopes[i] == "cabinet") != (scopes[j] == "cabinet") {
			return scopes[i] == "cabinet"
		}
		return scopes[i] < scopes[j]
	})
	for _, s := range scopes {
		p("\nMETERS %s", s)
		m := d.Meters[ledger.Scope(s)]
		order := ledger.CabinetMeters
		for _, name := range order {
			if v, ok := m[name]; ok {
				p("  %-26s %12d", name, v)
			}
		}
	}
	if d.Open != nil {
		p("\nOPEN ROUND")
		writeRound(p, money, *d.Open)
	}
	p("\nRECALL (newest first, %d shown)", len(d.Recall))
	for _, r := range d.Recall {
		writeRound(p, money, r)
	}
	p("\nPENDING DOCUMENTS")
	for _, x := range d.Pending {
		p("  #%d %s %s %s round %d", x.ID, x.Kind, money(x.Amount), ledger.Mask(x.Number), x.Round)
	}
	p("\nNOTES AND TICKETS IN (last %d)", len(d.DocsIn))
	for _, x := range d.DocsIn {
		p("  %s #%d %s %s %s", x.Done.Format(time.RFC3339), x.ID, x.Kind, money(x.Amount), ledger.Mask(x.Number))
	}
	p("\nVOUCHERS OUT (last %d)", len(d.DocsOut))
	for _, x := range d.DocsOut {
		p("  %s #%d %s %s", x.Done.Format(time.RFC3339), x.ID, money(x.Amount), x.Number)
	}
	p("\nEVENTS (newest first, %d shown)", len(d.Events))
	for _, e := range d.Events {
		p("  #%d %s +%s pu%d %s %s %s %s", e.Seq, e.Wall.Format(time.RFC3339), e.Mono.Round(time.Millisecond), e.PowerUp,
			e.Kind, e.Source, e.Text, amountIf(money, e.Amount))
	}
	p("\nCONFIGURATION")
	keys := make([]string, 0, len(d.Config))
	for k := range d.Config {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p("  %s = %s", k, d.Config[k])
	}
	writeResume(p, money, d.Resume)
	p("\nOUTBOX: %d message(s) not yet acknowledged by the central system", d.Outbox)
	return nil
}

// writeResume shows the resume state: what the cabinet restores at its
// next power-up.
func writeResume(p func(string, ...any), money func(int64) string, r ledger.Resume) {
	p("\nRESUME STATE")
	for _, k := range slices.Sorted(maps.Keys(r.Tilts)) {
		who := "device"
		if r.Tilts[k].Manual {
			who = "technician"
		}
		p("  tilt %s (%s ends it): %s", k, who, r.Tilts[k].Reason)
	}
	for _, k := range slices.Sorted(maps.Keys(r.Doors)) {
		p("  door %s open", k)
	}
	if !r.Beat.IsZero() {
		p("  last heartbeat %s", r.Beat.Format(time.RFC3339))
	}
	if r.SoftwareID != "" {
		p("  software accepted %s", r.SoftwareID)
	}
	for _, id := range slices.Sorted(maps.Keys(r.Holds)) {
		h := r.Holds[id]
		state := "ticket in escrow"
		switch h.Result {
		case ledger.DocStacked:
			state = "stacked: to confirm"
		case ledger.DocReturned:
			state = "returned: to release"
		}
		p("  ticket hold #%d %s %s (%s)", id, ledger.Mask(h.Number), money(h.Amount), state)
	}
	for _, m := range slices.Sorted(maps.Keys(r.HardMeters)) {
		p("  hard meter %s pulsed %d", m, r.HardMeters[m])
	}
}

// writeByCopy shows each suspect value as each copy holds it, marking
// those both copies agree on.
func writeByCopy(p func(string, ...any), d dumpOut) {
	p("\nSUSPECT VALUES BY COPY (= both copies agree, ! they differ, ? unreadable)")
	val := func(v *int64) string {
		if v == nil {
			return "?"
		}
		return fmt.Sprint(*v)
	}
	mark := func(a, b string) string {
		switch {
		case a == "?" || b == "?":
			return "?"
		case a == b:
			return "="
		}
		return "!"
	}
	a, b := val(d.CopyCredit[0]), val(d.CopyCredit[1])
	p("  %s %-40s %14s %14s", mark(a, b), "credit", a, b)
	keys := map[string]bool{}
	for _, cm := range d.CopyMeters {
		for s, m := range cm {
			for name := range m {
				keys[string(s)+" "+string(name)] = true
			}
		}
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		sc, name, _ := strings.Cut(k, " ")
		var vs [2]string
		for i, cm := range d.CopyMeters {
			vs[i] = "?"
			if cm != nil {
				vs[i] = fmt.Sprint(cm[ledger.Scope(sc)][ledger.Meter(name)])
			}
		}
		p("  %s %-40s %14s %14s", mark(vs[0], vs[1]), k, vs[0], vs[1])
	}
}

func writeRound(p func(string, ...any), money func(int64) string, r ledger.Round) {
	p("  round %d %s %s denom %d stake %s win %s credit %s -> %s", r.Number, r.Game, r.Status, r.Denom,
		money(r.Stake), money(r.Win), money(r.CreditBefore), money(r.CreditAfter))
	if len(r.Choices) > 0 {
		p("    choices %s", printable(r.Choices))
	}
	if len(r.Outcome) > 0 {
		sum := sha256.Sum256(r.Outcome)
		p("    outcome %d bytes sha256 %s: %s", len(r.Outcome), hex.EncodeToString(sum[:8]), printable(r.Outcome))
	}
	for _, s := range r.Risk {
		p("    risk step %d: stake %s won %s %s", s.Step, money(s.Stake), money(s.Won), printable(s.Payload))
	}
	if s := r.Settlement; s != nil {
		p("    settled: credit %s handpay %s jackpot %s %s", money(s.Credit), money(s.Handpay), money(s.Jackpot), printable(s.Payload))
	}
	if r.RefundReason != "" {
		p("    refunded: %s", r.RefundReason)
	}
	var j []string
	for _, e := range r.Journal {
		j = append(j, fmt.Sprintf("%s@%d", e.Kind, e.Seq))
	}
	p("    journal %s", strings.Join(j, " "))
}

// currencyOf is the -market profile's currency, else the one the ledger
// records; a ledger of a cabinet that never recorded one shows minor units.
func currencyOf(name string, config map[string]string) (money.Currency, error) {
	if name != "" {
		p, err := market.Load(name)
		if err != nil {
			return money.Currency{}, err
		}
		return p.Currency, nil
	}
	var c money.Currency
	if _, err := fmt.Sscanf(config[ledger.ConfigCurrency], "%s %d", &c.Code, &c.MinorUnits); err != nil {
		return money.Currency{Code: "(minor units; give -market)"}, nil
	}
	return c, nil
}

func amountIf(money func(int64) string, v int64) string {
	if v == 0 {
		return ""
	}
	return "amount " + money(v)
}

func short(h string) string {
	if len(h) > 16 {
		return h[:16]
	}
	return h
}

func printable(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	s := string(b)
	if !utf8.ValidString(s) {
		return "(binary)"
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// crashChild makes the crash test's children: each writes to its ledger
// until killed, so the kernel kills it should this process die first
// (SIGKILL, what the test does anyway). The parent-death signal goes when
// the thread that started the child ends; crashtest starts them from
// goroutines that do not lock their thread, and the runtime ends no thread
// of those, so it goes with the process.
func crashChild(self string) func([]string) *exec.Cmd {
	return func(a []string) *exec.Cmd {
		cmd := exec.Command(self, append([]string{"crash-child"}, a...)...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		return cmd
	}
}
