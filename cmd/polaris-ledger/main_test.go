package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polaris-vlt/polaris/firmware/ledger"
)

func TestDump(t *testing.T) {
	d := t.TempDir()
	a, b := filepath.Join(d, "a"), filepath.Join(d, "b")
	l, err := ledger.Create(ledger.Options{DirA: a, DirB: b}, "installer")
	if err != nil {
		t.Fatal(err)
	}
	id := l.NextDocID()
	steps := []error{l.Escrow(id, ledger.DocBill, 2000, ""), l.Stacked(id, 2000),
		l.Wager(ledger.Wager{Round: 1, Game: "wish", Denom: 1, Stake: 100}),
		l.Outcome(1, 40, []byte(`{"screen":"A K Q"}`)), l.Settle(1, ledger.Settlement{Credit: 40}),
		l.VoucherPrinting(id+1, 500, "123456789012345678"), l.VoucherPrinted(id + 1),
		l.SetTilt("acceptor", "jam", true), l.DoorOpened("main"), l.HardMeterPulsed("in", 20)}
	for _, err := range steps {
		if err != nil {
			t.Fatal(err)
		}
	}
	// the dump runs beside the open ledger
	var out bytes.Buffer
	if err := dump([]string{"-a", a, "-b", b}, &out); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"CREDIT 1440 (minor units", "both copies good and equal", "round 1 wish settled", `{"screen":"A K Q"}`,
		"**************5678", "coin_in                             100",
		"RESUME STATE\n  tilt acceptor (technician ends it): jam\n  door main open\n  hard meter in pulsed 20\n"} {
		if !strings.Contains(s, want) {
			t.Errorf("dump lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "123456789012345678") {
		t.Error("full validation number shown")
	}
	// amounts in the unit the cabinet recorded, or the one -market names
	// (a Czech ledger once showed 2 500 Kč as "25.00")
	if err := l.SetConfig(ledger.ConfigCurrency, "CZK 0", "market cz"); err != nil {
		t.Fatal(err)
	}
	for args, want := range map[string]string{"": "CREDIT 1440 CZK", "-market at": "CREDIT 14.40 EUR"} {
		out.Reset()
		if err := dump(append([]string{"-a", a, "-b", b}, strings.Fields(args)...), &out); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), want+"\n") {
			t.Errorf("dump %s lacks %q:\n%s", args, want, out.String())
		}
	}
	out.Reset()
	if err := dump([]string{"-a", a, "-b", b, "-json"}, &out); err != nil {
		t.Fatal(err)
	}
	var j dumpOut
	if err := json.Unmarshal(out.Bytes(), &j); err != nil || j.Credit != 1440 || j.Suspect {
		t.Fatalf("json dump: %v %+v", err, j)
	}
	l.Close()

	// both copies damaged: the dump still shows the values, flagged
	for _, dir := range []string{a, b} {
		p := filepath.Join(dir, ledger.DBName)
		st, _ := os.Stat(p)
		os.Truncate(p, st.Size()/2)
	}
	out.Reset()
	if err := dump([]string{"-a", a, "-b", b}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "SUSPECT") {
		t.Fatalf("no suspect flag:\n%s", out.String())
	}
}

// TestDumpSchema1: the dump of a ledger the schema-1 code wrote shows its
// resume state as the next open will convert it, and changes nothing.
func TestDumpSchema1(t *testing.T) {
	d := t.TempDir()
	var dirs []string
	for _, c := range []string{"a", "b"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "firmware", "ledger", "testdata", "schema1", c, ledger.DBName))
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(d, c)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, ledger.DBName), b, 0o600); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir)
	}
	var out bytes.Buffer
	if err := dump([]string{"-a", dirs[0], "-b", dirs[1]}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"converted from schema 1", "resume state stale_key unreadable",
		"tilt acceptor (technician ends it): ticket stacked without validation", "door main open",
		"ticket hold #3 **************3333 900 CZK (ticket in escrow)", "software accepted sha256:0123456789abcdef0123"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("dump lacks %q:\n%s", want, out.String())
		}
	}
}
