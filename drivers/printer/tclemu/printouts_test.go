package tclemu

import (
	"fmt"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/internal/poll"
)

// A devkit printer that prints for months keeps a bounded record: the newest
// PrintoutsKeep printouts at least, never 2·PrintoutsKeep, numbered on.
func TestPrintoutsBounded(t *testing.T) {
	h := newHost(t, Options{PrintTime: time.Millisecond})
	const n = 3*PrintoutsKeep + 5
	for i := 1; i <= n; i++ {
		h.send(fmt.Sprintf("^P|2|1|a|b|c|d|e|%018d|g|h|i|j|k|l|m|^", i))
		poll.Until(t, 5*time.Second, fmt.Sprintf("print %d to complete", i), func() bool {
			p := h.emu.Printouts()
			return len(p) > 0 && p[len(p)-1].Seq == i && p[len(p)-1].Complete
		}, h.emu.String)
		h.emu.TakeTicket()
	}
	p := h.emu.Printouts()
	if len(p) < PrintoutsKeep || len(p) >= 2*PrintoutsKeep {
		t.Fatalf("%d printouts kept of %d, want [%d, %d)", len(p), n, PrintoutsKeep, 2*PrintoutsKeep)
	}
	last := p[len(p)-1]
	if last.Seq != n || !last.Complete || last.Barcodes[0] != fmt.Sprintf("%018d", n) {
		t.Errorf("the newest printout is %+v, want number %d complete", last, n)
	}
}
