package devkit

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/polaris-vlt/polaris/board"
	"github.com/polaris-vlt/polaris/central/reports"
	id003emu "github.com/polaris-vlt/polaris/drivers/id003/emulator"
	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"github.com/polaris-vlt/polaris/drivers/printer/tclemu"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/market"
)

// DocumentDir is where a headless cabinet keeps its emulators' document
// logs (board.Options.DocumentLogDir): a headless cabinet whose data
// directory has this folder logs there, and so its cash box and printed
// tickets outlive the process, as paper does a power cut.
func DocumentDir(dataDir string) string { return filepath.Join(dataDir, "devices") }

// physical is what the emulators' logs say happened to paper.
type physical struct {
	hasAcceptor, hasPrinter bool
	notes                   map[int64]int // value → notes in the cash box
	tickets                 []string      // tickets in the cash box, in order
	vouchers                []printed     // tickets whose validation number reached paper
}

type printed struct {
	number string
	text   string
	done   bool // presented in the chute (not stopped mid-print)
}

func readPhysical(dataDir string, prof *market.Profile) (*physical, error) {
	dir := DocumentDir(dataDir)
	ph := &physical{notes: map[int64]int{}}
	accPath, prnPath := filepath.Join(dir, board.AcceptorLogFile), filepath.Join(dir, board.PrinterLogFile)
	if _, err := os.Stat(accPath); err == nil {
		ph.hasAcceptor = true
		entries, err := id003emu.ReadLog(accPath)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.Event != id003emu.LogStacked {
				continue
			}
			if e.IsTicket() {
				ph.tickets = append(ph.tickets, e.Ticket)
			} else {
				ph.notes[noteValue(e.Code, prof)]++
			}
		}
	}
	if _, err := os.Stat(prnPath); err == nil {
		ph.hasPrinter = true
		entries, err := tclemu.ReadLog(prnPath)
		if err != nil {
			return nil, err
		}
		// The TCL emulator names the ticket when it starts printing; the
		// ESC/POS one carries it on each entry (the same line shape).
		byTicket := map[int]tclemu.LogEntry{}
		voucherOf := map[int]int{} // ticket → index in ph.vouchers
		for _, e := range entries {
			if e.Event == tclemu.LogPrinting || len(e.Barcodes) > 0 {
				byTicket[e.Ticket] = e
			}
			p, ok := byTicket[e.Ticket]
			if !ok || len(p.Barcodes) == 0 {
				continue
			}
			switch e.Event {
			case tclemu.LogValidation:
				if p.Barcodes[0] == document.TestValidation {
					continue // test mode's printer test: no money
				}
				if _, dup := voucherOf[e.Ticket]; !dup {
					voucherOf[e.Ticket] = len(ph.vouchers)
					ph.vouchers = append(ph.vouchers, printed{number: p.Barcodes[0], text: strings.Join(p.Lines, "\n")})
				}
			case tclemu.LogComplete:
				if i, ok := voucherOf[e.Ticket]; ok {
					ph.vouchers[i].done = true
					ph.vouchers[i].text = strings.Join(p.Lines, "\n")
				}
			}
		}
	}
	return ph, nil
}

// noteValue is what the cabinet credits for a note escrow code (0 for a
// code outside the table).
func noteValue(code byte, prof *market.Profile) int64 {
	for _, d := range noteTable(prof) {
		if d.Code != code {
			continue
		}
		v := int64(d.Base)
		for i := byte(0); i < d.Exponent; i++ {
			v *= 10
		}
		for i := 0; i < prof.Currency.MinorUnits; i++ {
			v *= 10
		}
		return v
	}
	return 0
}

// reconcileDocuments checks the ledger against the documents the
// emulators physically stacked and printed. In flight at a kill (settledAll
// false) a document may be ahead of the ledger by what the ledger still
// holds as pending: the recovery after the restart must settle it.
func (r *Reconciler) reconcileDocuments(led *ledger.Ledger, db reports.Querier, prof *market.Profile, settledAll bool, badf func(string, ...any)) error {
	ph, err := readPhysical(r.DataDir, prof)
	if err != nil {
		return err
	}
	ctx := context.Background()
	ms, _ := led.Meters(ledger.ScopeCabinet)
	pendNotes, pendTickets := map[int64]int{}, map[string]bool{}
	pendVouchers := map[string]bool{}
	for _, d := range led.PendingDocs() {
		switch d.Kind {
		case ledger.DocBill:
			pendNotes[d.Amount]++
		case ledger.DocTicketIn:
			pendTickets[d.Number] = true
		case ledger.DocVoucher:
			pendVouchers[d.Number] = true
		}
	}
	if settledAll {
		pendNotes = map[int64]int{}
	}

	if ph.hasAcceptor {
		// Notes: the cash box against the ledger's per-value counts.
		values := map[int64]bool{}
		for v := range ph.notes {
			values[v] = true
		}
		for _, b := range prof.Limits.Bills {
			values[int64(b)] = true
		}
		for _, v := range sortedKeys(values) {
			bm, _ := led.Meters(ledger.BillScope(v))
			credited, stacked := bm[ledger.BillsInCount], int64(ph.notes[v])
			switch {
			case credited > stacked:
				badf("%d note(s) of %d credited that are not in the cash box", credited-stacked, v)
			case stacked-credited > int64(pendNotes[v]):
				badf("%d note(s) of %d in the cash box not credited", stacked-credited-int64(pendNotes[v]), v)
			}
		}
		// Tickets, one by one: as often credited as stacked, the ticket
		// caught by a kill excepted while the ledger holds it pending.
		inBox := map[string]int{}
		for _, n := range ph.tickets {
			inBox[n]++
		}
		for _, d := range led.DocsIn() {
			if d.Kind == ledger.DocTicketIn && d.Result == ledger.DocStacked {
				r.tickets[d.ID] = d.Number
			}
		}
		credits := map[string]int{}
		for _, n := range r.tickets {
			credits[n]++
		}
		numbers := map[string]bool{}
		for n := range inBox {
			numbers[n] = true
		}
		for n := range credits {
			numbers[n] = true
		}
		for n := range numbers {
			switch c, p := credits[n], inBox[n]; {
			case c > p:
				badf("ticket %s credited %d time(s), in the cash box %d", ledger.Mask(n), c, p)
			case p > c && !(pendTickets[n] && !settledAll):
				badf("ticket %s in the cash box %d time(s), credited %d", ledger.Mask(n), p, c)
			}
		}
		for n := range inBox {
			// (Whether a credited one was redeemed there, Check asks.)
			if _, err := reports.LookupVoucher(ctx, db, n); err != nil {
				badf("ticket %s in the cash box is unknown to the central system", ledger.Mask(n))
			}
		}
		if redeemed, err := reports.RedeemedAt(ctx, db, r.CabinetID); err == nil {
			for _, n := range redeemed {
				if inBox[n] == 0 {
					badf("ticket %s redeemed at the central system but not in the cash box", ledger.Mask(n))
				}
			}
		}
	}

	if ph.hasPrinter {
		lang := document.Lang(prof.Language)
		cur := prof.Currency
		out := map[string]bool{}
		for _, d := range led.DocsOut() {
			if d.Kind == ledger.DocVoucher && d.Result == ledger.DocPrinted {
				out[d.Number] = true
				r.debited[d.Number] = true
			}
		}
		onPaper := map[string]int{}
		var value, inFlight int64
		dupMark := document.DuplicateMark(lang)
		for _, v := range ph.vouchers {
			onPaper[v.number]++
			if onPaper[v.number] > 1 {
				// A power cut's voucher is printed again, marked: the
				// central system redeems its number once.
				if onPaper[v.number] > 2 || !strings.Contains(v.text, dupMark) {
					badf("voucher %s printed twice", ledger.Mask(v.number))
				}
				continue
			}
			issued, err := reports.LookupVoucher(ctx, db, v.number)
			if err != nil || issued.Cabinet != r.CabinetID {
				badf("voucher %s printed but not issued by the central system", ledger.Mask(v.number))
				continue
			}
			amount := issued.Amount
			if v.done && !strings.Contains(v.text, document.FormatAmount(lang, amount, cur)) {
				badf("voucher %s: the paper does not show the %d issued", ledger.Mask(v.number), amount)
			}
			value += amount
			switch {
			case r.debited[v.number]:
			case pendVouchers[v.number] && !settledAll:
				inFlight++ // printed at the kill: the restart settles it
			case !r.reported[v.number]:
				r.reported[v.number] = true
				badf("voucher %s printed but not debited", ledger.Mask(v.number))
			}
		}
		for n := range out {
			if onPaper[n] == 0 {
				badf("voucher %s debited but never printed", ledger.Mask(n))
			}
		}
		// The meters, for the vouchers the window of the ledger's history
		// has let go.
		debited, paper := ms[ledger.TicketsOutCount], int64(len(onPaper))
		switch {
		case debited > paper:
			badf("%d voucher(s) debited more than printed", debited-paper)
		case paper-debited > inFlight && len(r.reported) == 0:
			badf("%d voucher(s) printed more than debited", paper-debited-inFlight)
		}
		if inFlight == 0 && len(r.reported) == 0 && debited == paper && value != ms[ledger.TicketsOutValue] {
			badf("the vouchers on paper and the vouchers debited differ in value by %d", value-ms[ledger.TicketsOutValue])
		}
	}
	return nil
}

func sortedKeys(m map[int64]bool) []int64 {
	var out []int64
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// noteTable is the emulated acceptor's table of the market's currency (the
// devkit board takes the market's; euros where the emulator has none).
func noteTable(prof *market.Profile) []id003emu.Denom {
	if t, ok := id003emu.Tables[prof.Currency.Code]; ok {
		return t.Denoms
	}
	return id003emu.EUR
}
