package cardreader

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/polaris-vlt/polaris/cardauth"
)

func TestFakeAnswersLikeACard(t *testing.T) {
	master := bytes.Repeat([]byte{3}, 32)
	key, _ := cardauth.Derive(master, "4000123456789010")
	f := NewFake("fake")
	ctx := context.Background()
	ch := bytes.Repeat([]byte{9}, 32)
	if _, err := f.Authenticate(ctx, ch); !errors.Is(err, ErrNoCard) {
		t.Fatal(err)
	}
	f.Insert("4000123456789010", key)
	if e, ok := (<-f.Events()).(CardInserted); !ok || e.Reader != "fake" || e.CardID != "4000123456789010" {
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
	if _, err := f.Authenticate(ctx, ch[:8]); !errors.Is(err, ErrChallenge) {
		t.Fatal(err)
	}
	f.Lose()
	if e := <-f.Events(); e != (Event)(CardRemoved{Reader: "fake", CardID: "4000123456789010"}) {
		t.Fatalf("%#v", e)
	}
	if _, ok := (<-f.Events()).(ReaderLost); !ok {
		t.Fatal("no ReaderLost")
	}
	if _, err := f.Authenticate(ctx, ch); !errors.Is(err, ErrReaderLost) {
		t.Fatal(err)
	}
	f.Back()
	<-f.Events()
	f.Close()
	if _, ok := <-f.Events(); ok {
		t.Fatal("events open after Close")
	}
}

func TestAppletAnswersAreChecked(t *testing.T) {
	if _, err := CheckGetID([]byte("4000123456789010\x90\x00")); err != nil {
		t.Fatal(err)
	}
	var bad *BadResponseError
	for name, err := range map[string]error{
		"select 6A82":   CheckSelect([]byte{0x6A, 0x82}),
		"select empty":  CheckSelect(nil),
		"id letters":    second(CheckGetID([]byte("40001234567890AB\x90\x00"))),
		"id 6985":       second(CheckGetID([]byte{0x69, 0x85})),
		"auth short":    second(CheckAuthenticate(append(make([]byte, 31), 0x90, 0))),
		"auth one byte": second(CheckAuthenticate([]byte{0x90})),
		"auth refused":  second(CheckAuthenticate([]byte{0x69, 0x82})),
	} {
		if !errors.As(err, &bad) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func second[T any](_ T, err error) error { return err }
