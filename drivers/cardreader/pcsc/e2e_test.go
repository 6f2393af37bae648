package pcsc_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/cardauth"
	"github.com/polaris-vlt/polaris/drivers/cardreader"
	"github.com/polaris-vlt/polaris/drivers/cardreader/cardemu"
	"github.com/polaris-vlt/polaris/drivers/cardreader/internal/pcscdtest"
	"github.com/polaris-vlt/polaris/drivers/cardreader/pcsc"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// These tests run the whole path: reader driver → pcscd's socket → pcscd
// → vsmartcard-vpcd → TCP → the card emulator.

var master = bytes.Repeat([]byte{0x5A}, 32)

const (
	idA = "4000123456789010"
	idB = "4000123456789028"
)

type rig struct {
	t    *testing.T
	d    *pcscdtest.Daemon
	slot *cardemu.Slot
	r    *pcsc.Reader
}

// newRig runs the test beside the others: each has its own pcscd, socket
// and vpcd port, so they do not meet.
func newRig(t *testing.T) *rig {
	t.Parallel()
	d := pcscdtest.Start(t)
	r, err := pcsc.Open(pcsc.Config{Socket: d.Socket, Reader: pcscdtest.Slot0, RetryInterval: 200 * time.Millisecond,
		Log: slog.New(slog.NewTextHandler(tWriter{t}, nil))})
	if err != nil {
		t.Fatal(err)
	}
	s := cardemu.NewSlot(d.Addr(0))
	t.Cleanup(func() { s.Remove(); r.Close() })
	return &rig{t: t, d: d, slot: s, r: r}
}

type tWriter struct{ t *testing.T }

func (w tWriter) Write(p []byte) (int, error) {
	w.t.Logf("%s", bytes.TrimRight(p, "\n"))
	return len(p), nil
}

// next is the next event, within 10 s (pcscd polls vpcd every 400 ms).
func (g *rig) next() cardreader.Event {
	g.t.Helper()
	select {
	case e, ok := <-g.r.Events():
		if !ok {
			g.t.Fatal("events closed")
		}
		return e
	case <-poll.After(10 * time.Second):
		g.t.Fatalf("no reader event within %v", poll.Scaled(10*time.Second))
	}
	return nil
}

func (g *rig) want(want string) cardreader.Event {
	g.t.Helper()
	e := g.next()
	if got := describe(e); got != want {
		g.t.Fatalf("event %s, want %s (%+v)", got, want, e)
	}
	return e
}

func (g *rig) quiet(d time.Duration) {
	g.t.Helper()
	select {
	case e := <-g.r.Events():
		g.t.Fatalf("unexpected event %s (%+v)", describe(e), e)
	case <-time.After(d):
	}
}

func describe(e cardreader.Event) string {
	switch e := e.(type) {
	case cardreader.CardInserted:
		return "inserted " + e.CardID
	case cardreader.CardRemoved:
		return "removed " + e.CardID
	case cardreader.UnknownCard:
		return "unknown"
	case cardreader.ReaderLost:
		return "lost"
	case cardreader.ReaderBack:
		return "back"
	}
	return fmt.Sprintf("%T", e)
}

func challenge(n byte) []byte { return bytes.Repeat([]byte{n}, cardauth.ChallengeLen) }

func (g *rig) authenticate(id string, ch []byte) bool {
	g.t.Helper()
	resp, err := g.r.Authenticate(context.Background(), ch)
	if err != nil {
		g.t.Fatalf("authenticate: %v", err)
	}
	if resp.CardID != id {
		g.t.Fatalf("answer for card %s, want %s", resp.CardID, id)
	}
	ok, err := cardauth.Verify(master, id, ch, resp.MAC)
	if err != nil {
		g.t.Fatal(err)
	}
	return ok
}

func TestGenuineCardInAuthenticatedOut(t *testing.T) {
	g := newRig(t)
	if err := g.slot.Insert(cardemu.PlayerCard(master, idA)); err != nil {
		t.Fatal(err)
	}
	e := g.want("inserted " + idA).(cardreader.CardInserted)
	if e.Reader != pcscdtest.Slot0 || !bytes.Equal(e.ATR, cardemu.PolarisATR) {
		t.Errorf("inserted at %q with ATR % X", e.Reader, e.ATR)
	}
	if !g.authenticate(idA, challenge(1)) {
		t.Fatal("a genuine card's answer did not verify")
	}
	if g.authenticate(idA, challenge(2)) != true {
		t.Fatal("second challenge")
	}
	g.slot.Remove()
	g.want("removed " + idA)
	if _, err := g.r.Authenticate(context.Background(), challenge(3)); !errors.Is(err, cardreader.ErrNoCard) {
		t.Fatalf("authenticate without a card: %v", err)
	}
}

func TestClonedCardNeverAuthenticates(t *testing.T) {
	g := newRig(t)
	if err := g.slot.Insert(cardemu.ClonedCard(idA)); err != nil {
		t.Fatal(err)
	}
	g.want("inserted " + idA) // the number reads like the genuine card's
	for i := byte(1); i <= 3; i++ {
		if g.authenticate(idA, challenge(i)) {
			t.Fatal("a cloned card's answer verified")
		}
	}
}

func TestUnknownCardIsReportedNotInserted(t *testing.T) {
	g := newRig(t)
	if err := g.slot.Insert(cardemu.UnknownCard()); err != nil {
		t.Fatal(err)
	}
	e := g.want("unknown").(cardreader.UnknownCard)
	if !bytes.Equal(e.ATR, cardemu.OtherATR) || e.Reason == "" {
		t.Errorf("unknown card: %+v", e)
	}
	if _, err := g.r.Authenticate(context.Background(), challenge(1)); !errors.Is(err, cardreader.ErrNoCard) {
		t.Fatalf("authenticate with an unknown card: %v", err)
	}
	g.quiet(time.Second) // reported once, not at every poll
	g.slot.Remove()
	g.want("removed ") // the unknown card left: no number
	if err := g.slot.Insert(cardemu.PlayerCard(master, idB)); err != nil {
		t.Fatal(err)
	}
	g.want("inserted " + idB)
}

func TestSwapReportsOutThenIn(t *testing.T) {
	g := newRig(t)
	if err := g.slot.Insert(cardemu.PlayerCard(master, idA)); err != nil {
		t.Fatal(err)
	}
	g.want("inserted " + idA)
	if err := g.slot.Swap(cardemu.PlayerCard(master, idB)); err != nil {
		t.Fatal(err)
	}
	g.want("removed " + idA)
	g.want("inserted " + idB)
	if !g.authenticate(idB, challenge(7)) {
		t.Fatal("swapped-in card did not verify")
	}
}

func TestCardRemovedMidTransaction(t *testing.T) {
	g := newRig(t)
	if err := g.slot.Insert(cardemu.PlayerCard(master, idA)); err != nil {
		t.Fatal(err)
	}
	g.want("inserted " + idA)
	g.slot.SetFault(cardemu.RemoveOnAuthenticate)
	_, err := g.r.Authenticate(context.Background(), challenge(1))
	if !errors.Is(err, cardreader.ErrCardRemoved) {
		t.Fatalf("card pulled during INTERNAL AUTHENTICATE: %v", err)
	}
	g.want("removed " + idA)
	g.slot.SetFault(cardemu.NoFault)
	if err := g.slot.Insert(cardemu.PlayerCard(master, idA)); err != nil {
		t.Fatal(err)
	}
	g.want("inserted " + idA)
	if !g.authenticate(idA, challenge(2)) {
		t.Fatal("card back in did not verify")
	}
}

func TestGarbageAnswersChangeNothing(t *testing.T) {
	g := newRig(t)
	g.slot.SetFault(cardemu.GarbageID)
	if err := g.slot.Insert(cardemu.PlayerCard(master, idA)); err != nil {
		t.Fatal(err)
	}
	if e := g.want("unknown").(cardreader.UnknownCard); !bytes.Contains([]byte(e.Reason), []byte("not 16 digits")) {
		t.Errorf("reason %q", e.Reason)
	}
	g.slot.Remove()
	g.want("removed ")
	g.slot.SetFault(cardemu.GarbageOnAuthenticate)
	if err := g.slot.Insert(cardemu.PlayerCard(master, idA)); err != nil {
		t.Fatal(err)
	}
	g.want("inserted " + idA)
	_, err := g.r.Authenticate(context.Background(), challenge(1))
	var bad *cardreader.BadResponseError
	if !errors.As(err, &bad) || bad.Command != "INTERNAL AUTHENTICATE" {
		t.Fatalf("garbage answer: %v", err)
	}
	g.quiet(time.Second) // the card is still in, still the same card
	g.slot.SetFault(cardemu.NoFault)
	if !g.authenticate(idA, challenge(2)) {
		t.Fatal("after the garbage, the genuine answer did not verify")
	}
	if _, err := g.r.Authenticate(context.Background(), make([]byte, 8)); !errors.Is(err, cardreader.ErrChallenge) {
		t.Fatalf("short challenge: %v", err)
	}
}

func TestReaderLostAndBack(t *testing.T) {
	g := newRig(t)
	if err := g.slot.Insert(cardemu.PlayerCard(master, idA)); err != nil {
		t.Fatal(err)
	}
	g.want("inserted " + idA)
	g.d.Stop()
	g.want("removed " + idA)
	if e := g.want("lost").(cardreader.ReaderLost); e.Err == nil {
		t.Error("lost without a reason")
	}
	if _, err := g.r.Authenticate(context.Background(), challenge(1)); !errors.Is(err, cardreader.ErrReaderLost) {
		t.Fatalf("authenticate with pcscd down: %v", err)
	}
	g.quiet(time.Second) // lost once, not at every retry
	g.slot.Remove()      // vpcd went with pcscd: the card's link is dead
	g.d.Restart()
	g.want("back")
	if err := g.slot.Insert(cardemu.PlayerCard(master, idA)); err != nil {
		t.Fatal(err)
	}
	g.want("inserted " + idA)
	if !g.authenticate(idA, challenge(2)) {
		t.Fatal("after pcscd came back the card did not verify")
	}
}

func TestMissingReaderIsLost(t *testing.T) {
	t.Parallel()
	d := pcscdtest.Start(t)
	r, err := pcsc.Open(pcsc.Config{Socket: d.Socket, Reader: "ACS ACR39U"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	select {
	case e := <-r.Events():
		if l, ok := e.(cardreader.ReaderLost); !ok || !errors.Is(l.Err, cardreader.ErrReaderLost) {
			t.Fatalf("event %+v", e)
		}
	case <-poll.After(10 * time.Second):
		t.Fatal("no event")
	}
}

// A card another program holds exclusively cannot be read when it comes;
// pcscd signals nothing when that program lets go, so the reader looks
// again on its own and reports the card then.
func TestCardHeldExclusivelyIsReadWhenReleased(t *testing.T) {
	t.Parallel()
	d := pcscdtest.Start(t)
	slot := cardemu.NewSlot(d.Addr(0))
	if err := slot.Insert(cardemu.PlayerCard(master, idA)); err != nil {
		t.Fatal(err)
	}
	defer slot.Remove()
	other, err := pcsc.Dial(d.Socket, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	ctx, err := other.EstablishContext()
	if err != nil {
		t.Fatal(err)
	}
	var card pcsc.Card
	deadline := time.Now().Add(poll.Scaled(10 * time.Second))
	for card, err = other.Connect(ctx, pcscdtest.Slot0, pcsc.ShareExclusive, pcsc.ProtocolT0|pcsc.ProtocolT1); err != nil; card, err = other.Connect(ctx, pcscdtest.Slot0, pcsc.ShareExclusive, pcsc.ProtocolT0|pcsc.ProtocolT1) {
		if time.Now().After(deadline) {
			t.Fatalf("exclusive connect: %v", err)
		}
		time.Sleep(100 * time.Millisecond) // until pcscd has seen the card
	}
	r, err := pcsc.Open(pcsc.Config{Socket: d.Socket, Reader: pcscdtest.Slot0, RetryInterval: 200 * time.Millisecond,
		Log: slog.New(slog.NewTextHandler(tWriter{t}, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	g := &rig{t: t, d: d, r: r}
	g.quiet(time.Second) // held: not readable, nothing reported
	if err := other.Disconnect(card, pcsc.LeaveCard); err != nil {
		t.Fatal(err)
	}
	g.want("inserted " + idA)
}
