package emulator

import (
	"strconv"
	"testing"
	"time"
)

// A devkit acceptor that takes notes for months keeps a bounded record (the
// newest RecordKeep at least), and the VEND VALID entry awaiting its ACK is
// still the one marked when the record was cut under it.
func TestRecordBounded(t *testing.T) {
	a := &Acceptor{cfg: Config{Now: time.Now}, openVend: -1}
	for i := 0; i < 10*RecordKeep; i++ {
		a.addRecord(Entry{Doc: Doc{Ticket: strconv.Itoa(i)}, Outcome: Stacked})
		if i == 2*RecordKeep-1 {
			a.openVend = len(a.record) - 1 // the next addRecord cuts the record
		}
		if i == 2*RecordKeep {
			if a.openVend < 0 || a.record[a.openVend].Doc.Ticket != strconv.Itoa(2*RecordKeep-1) {
				t.Fatalf("open VEND VALID index %d no longer names its entry", a.openVend)
			}
			a.openVend = -1
		}
	}
	if n := len(a.Record()); n < RecordKeep || n >= 2*RecordKeep {
		t.Fatalf("%d records kept, want [%d, %d)", n, RecordKeep, 2*RecordKeep)
	}
	if last := a.Record()[len(a.record)-1]; last.Doc.Ticket != strconv.Itoa(10*RecordKeep-1) {
		t.Errorf("the newest record is %+v", last)
	}
}
