package cardauth

import (
	"bytes"
	"encoding/hex"
	"errors"
	"testing"
)

func seq(from, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(from + i)
	}
	return b
}

// The vector was computed with Python's hmac module, not with this code:
// it pins the scheme as CARDS.md writes it down.
func TestGoldenVector(t *testing.T) {
	master, id, challenge := seq(0, 32), "4000123456789010", seq(100, 32)
	key, err := Derive(master, id)
	if err != nil {
		t.Fatal(err)
	}
	if got := hex.EncodeToString(key); got != "d18ab12d7996667e4e3e9e7b9cb70f117c37023afd230c93555e11f0e9267760" {
		t.Errorf("card key %s", got)
	}
	resp, err := Respond(key, id, challenge)
	if err != nil {
		t.Fatal(err)
	}
	if got := hex.EncodeToString(resp); got != "cc5d37d4f67c4b1ec3de7bb56d28dd2503f93eec3e7ef8ba0017e1045c85a94b" {
		t.Errorf("response %s", got)
	}
	if ok, err := Verify(master, id, challenge, resp); !ok || err != nil {
		t.Errorf("genuine answer refused: %v %v", ok, err)
	}
}

func TestClonedAndForgedAnswersFail(t *testing.T) {
	master, id, challenge := seq(0, 32), "4000123456789010", seq(100, 32)
	key, _ := Derive(master, id)
	genuine, _ := Respond(key, id, challenge)

	otherMaster := seq(1, 32)
	cloneKey, _ := Derive(otherMaster, id) // same number, key of another operator
	clone, _ := Respond(cloneKey, id, challenge)
	zero, _ := Respond(make([]byte, 32), id, challenge) // same number, no key at all
	other, _ := Derive(master, "4000123456789028")
	borrowed, _ := Respond(other, "4000123456789028", challenge) // another genuine card's answer
	flipped := bytes.Clone(genuine)
	flipped[31] ^= 1

	for name, resp := range map[string][]byte{
		"clone": clone, "zero key": zero, "another card's answer": borrowed,
		"one bit": flipped, "short": genuine[:16], "empty": nil,
	} {
		if ok, err := Verify(master, id, challenge, resp); ok || err != nil {
			t.Errorf("%s: verified=%v err=%v", name, ok, err)
		}
	}
	if ok, _ := Verify(master, id, seq(101, 32), genuine); ok {
		t.Error("an answer to another challenge verified")
	}
}

func TestBadInputIsRefused(t *testing.T) {
	master := seq(0, 32)
	for _, id := range []string{"", "400012345678901", "40001234567890100", "400012345678901a", "4000 12345678901"} {
		if _, err := Derive(master, id); !errors.Is(err, ErrID) {
			t.Errorf("id %q: %v", id, err)
		}
	}
	if _, err := Derive(seq(0, 31), "4000123456789010"); !errors.Is(err, ErrMasterKey) {
		t.Errorf("short master: %v", err)
	}
	key, _ := Derive(master, "4000123456789010")
	for _, n := range []int{0, MinChallenge - 1, MaxChallenge + 1} {
		if _, err := Respond(key, "4000123456789010", seq(0, n)); !errors.Is(err, ErrChallenge) {
			t.Errorf("challenge of %d bytes: %v", n, err)
		}
	}
	if _, err := Respond(key[:31], "4000123456789010", seq(0, 32)); !errors.Is(err, ErrCardKey) {
		t.Errorf("short card key: %v", err)
	}
}
