package cardreadertest_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/polaris-vlt/polaris/cardauth"
	"github.com/polaris-vlt/polaris/drivers/cardreader"
	"github.com/polaris-vlt/polaris/drivers/cardreader/cardreadertest"
)

func TestReaderAnswersLikeACard(t *testing.T) {
	master := bytes.Repeat([]byte{3}, 32)
	key, _ := cardauth.Derive(master, "4000123456789010")
	f := cardreadertest.New("fake")
	ctx := context.Background()
	ch := bytes.Repeat([]byte{9}, 32)
	if _, err := f.Authenticate(ctx, ch); !errors.Is(err, cardreader.ErrNoCard) {
		t.Fatal(err)
	}
	f.Insert("4000123456789010", key)
	if e, ok := (<-f.Events()).(cardreader.CardInserted); !ok || e.Reader != "fake" || e.CardID != "4000123456789010" {
		t.Fatalf("%#v", e)
	}
	r, err := f.Authenticate(ctx, ch)
	if ok, _ := cardauth.Verify(master, r.CardID, ch, r.MAC); err != nil || !ok {
		t.Fatalf("genuine: %v %v", ok, err)
	}
	f.Insert("4000123456789010", nil) // a clone replaces it
	<-f.Events()
	<-f.Events()
	r, _ = f.Authenticate(ctx, ch)
	if ok, _ := cardauth.Verify(master, r.CardID, ch, r.MAC); ok {
		t.Fatal("clone verified")
	}
	if _, err := f.Authenticate(ctx, ch[:8]); !errors.Is(err, cardreader.ErrChallenge) {
		t.Fatal(err)
	}
	f.Lose()
	if e := <-f.Events(); e != (cardreader.Event)(cardreader.CardRemoved{Reader: "fake", CardID: "4000123456789010"}) {
		t.Fatalf("%#v", e)
	}
	if _, ok := (<-f.Events()).(cardreader.ReaderLost); !ok {
		t.Fatal("no cardreader.ReaderLost")
	}
	if _, err := f.Authenticate(ctx, ch); !errors.Is(err, cardreader.ErrReaderLost) {
		t.Fatal(err)
	}
	f.Back()
	<-f.Events()
	f.Close()
	if _, ok := <-f.Events(); ok {
		t.Fatal("events open after Close")
	}
}
