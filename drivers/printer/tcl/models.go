package tcl

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Model is what differs between TCL printer models on the line: how they
// report status, how long they take, and their f4 layout. A board profile
// names the model (printer.model) and may override each value.
type Model struct {
	Name string
	// Broadcast is the status broadcast period of a printer that answers
	// no ENQ (0: it answers ENQ).
	Broadcast    time.Duration
	StartTimeout time.Duration // from the last byte of ^P to busy
	PrintTimeout time.Duration // from busy to the end of the ticket
	Pacing       time.Duration // quiet time between messages
	F4           F4Layout
	Source       string // where the values come from
}

// Models are the TCL printers the driver knows. The FutureLogic/JCM and
// Nanoptix values are Monaco's (poll 500 ms / 100 ms, one message per
// exchange); the Paycheck4 ones are kcondict/Paycheck4's TclProtocol
// defaults: status broadcast every 2 s, 3 s from ^P to busy, 18 s to the
// validation number and 20 s more to the end of the ticket (38 s of print,
// beyond a 30 s time-out), 20 ms segment reassembly.
var Models = map[string]Model{
	"gen2u":     {Name: "FutureLogic/JCM GEN2 Universal", StartTimeout: 5 * time.Second, PrintTimeout: 30 * time.Second, Pacing: 100 * time.Millisecond, Source: "Monaco TclProtocol"},
	"gen5":      {Name: "JCM GEN5", StartTimeout: 5 * time.Second, PrintTimeout: 30 * time.Second, Pacing: 100 * time.Millisecond, Source: "Monaco TclProtocol"},
	"nanoptix":  {Name: "Nanoptix PayCheck/NextGen", StartTimeout: 5 * time.Second, PrintTimeout: 30 * time.Second, Pacing: 100 * time.Millisecond, Source: "Monaco TclProtocol"},
	"paycheck4": {Name: "Nanoptix Paycheck 4 (broadcast status)", Broadcast: 2 * time.Second, StartTimeout: 8 * time.Second, PrintTimeout: 60 * time.Second, Pacing: 100 * time.Millisecond, F4: F4Paycheck4, Source: "kcondict/Paycheck4 TclProtocol.cs"},
}

// ModelNames lists the known models, sorted.
func ModelNames() []string {
	var n []string
	for k := range Models {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// ApplyModel sets cfg's model-dependent fields from the named model
// ("" leaves cfg as it is).
func ApplyModel(cfg *Config, name string) error {
	if name == "" {
		return nil
	}
	m, ok := Models[name]
	if !ok {
		return fmt.Errorf("tcl: unknown printer model %q (want one of %s)", name, strings.Join(ModelNames(), ", "))
	}
	cfg.Broadcast, cfg.StartTimeout, cfg.PrintTimeout, cfg.Pacing, cfg.F4 = m.Broadcast, m.StartTimeout, m.PrintTimeout, m.Pacing, m.F4
	return nil
}
