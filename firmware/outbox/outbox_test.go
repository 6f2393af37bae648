package outbox_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/outbox"
)

// The ledger's events reach the link's outbox in the link's format, queued
// with the event; acks go back to the ledger.
func TestLedgerAsLinkOutbox(t *testing.T) {
	dir := t.TempDir()
	l, err := ledger.Create(ledger.Options{DirA: filepath.Join(dir, "a"), DirB: filepath.Join(dir, "b"), EventMessage: outbox.EventMessage}, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ob := outbox.Of(l)
	before, err := ob.Pending(1000)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.DoorOpened("main"); err != nil {
		t.Fatal(err)
	}
	msgs, err := ob.Pending(1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != len(before)+1 {
		t.Fatalf("%d messages after a door opened, %d before", len(msgs), len(before))
	}
	last := msgs[len(msgs)-1]
	if last.Kind != link.KindEvents || !strings.Contains(string(last.Payload), "door_open") {
		t.Fatalf("event not queued in the link's format: %+v", last)
	}
	if err := ob.Ack(last.ID); err != nil {
		t.Fatal(err)
	}
	if after, _ := ob.Pending(1000); len(after) != len(before) {
		t.Fatalf("ack did not remove the message: %d left", len(after))
	}
}
