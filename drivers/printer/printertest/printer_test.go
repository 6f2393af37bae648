package printertest_test

import (
	"errors"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"github.com/polaris-vlt/polaris/drivers/printer/printertest"
)

func v() document.Voucher {
	at := time.Unix(1_800_000_000, 0).UTC()
	return document.Voucher{Lang: document.English, Site: "S", SiteID: "1", Machine: "2", Issued: at, Amount: 100,
		Currency: document.EUR, Validation: "001234567890123456", Expiry: at.Add(time.Hour)}
}

func TestPrinterScripts(t *testing.T) {
	f := printertest.New(func() time.Time { return time.Unix(0, 0) })
	if _, err := f.Print(v()); err != nil {
		t.Fatal(err)
	}
	want := []string{"started", "validation", "complete", "chute"}
	for _, w := range want {
		e := <-f.Events()
		got := map[string]bool{"started": is[printer.PrintStarted](e), "validation": is[printer.ValidationPrinted](e),
			"complete": is[printer.PrintComplete](e), "chute": is[printer.TicketInChute](e)}
		if !got[w] {
			t.Fatalf("want %s, got %T", w, e)
		}
	}
	f.FailNext = printer.PaperJam
	f.Print(v())
	<-f.Events()
	if e := <-f.Events(); !is[printer.FaultSet](e) {
		t.Fatalf("%T", e)
	}
	if e := (<-f.Events()).(printer.PrintFailed); e.Issued || e.Fault != printer.PaperJam {
		t.Fatalf("%+v", e)
	}
	bad := v()
	bad.Validation = "1"
	if _, err := f.Print(bad); !errors.Is(err, document.ErrInvalid) {
		t.Fatalf("%v", err)
	}
	f.Close()
	if _, err := f.Print(v()); !errors.Is(err, printer.ErrClosed) {
		t.Fatalf("%v", err)
	}
}

func is[T printer.Event](e printer.Event) bool { _, ok := e.(T); return ok }
