package cardauth

import (
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"fmt"
)

// IDLen is the length of a card number: decimal digits, printed on the card.
const IDLen = 16

// Challenge bounds: the verifier draws ChallengeLen random bytes; the card
// answers any length in [MinChallenge, MaxChallenge] so a later verifier
// may ask for more.
const (
	ChallengeLen = 32
	MinChallenge = 16
	MaxChallenge = 64
)

// MACLen is the length of the card's answer (HMAC-SHA256).
const MACLen = sha256.Size

// MinMasterKey is the shortest master key Derive accepts: a short key
// would make every card key guessable at once.
const MinMasterKey = 32

// The labels separate the two uses of HMAC so that a card key can never be
// presented as an answer or the other way round, and name the scheme's
// version: a v2 scheme gets new labels, and v1 answers never verify there.
const (
	keyLabel  = "polaris card key v1\x00"
	authLabel = "polaris card auth v1\x00"
)

var (
	ErrID        = errors.New("cardauth: card number is not 16 decimal digits")
	ErrChallenge = fmt.Errorf("cardauth: challenge must be %d..%d bytes", MinChallenge, MaxChallenge)
	ErrMasterKey = fmt.Errorf("cardauth: master key shorter than %d bytes", MinMasterKey)
	ErrCardKey   = errors.New("cardauth: card key is not 32 bytes")
)

// CheckID says whether id is a well-formed card number.
func CheckID(id string) error {
	if len(id) != IDLen {
		return ErrID
	}
	for i := 0; i < len(id); i++ {
		if id[i] < '0' || id[i] > '9' {
			return ErrID
		}
	}
	return nil
}

// Derive is the card key written into the card with number id at issue:
// HMAC-SHA256(master, "polaris card key v1\0" || id). Knowing one card's
// key says nothing about another's or about the master key.
func Derive(master []byte, id string) ([]byte, error) {
	if len(master) < MinMasterKey {
		return nil, ErrMasterKey
	}
	if err := CheckID(id); err != nil {
		return nil, err
	}
	m := hmac.New(sha256.New, master)
	m.Write([]byte(keyLabel))
	m.Write([]byte(id))
	return m.Sum(nil), nil
}

// Respond is what the card with number id and key cardKey answers to
// challenge: HMAC-SHA256(cardKey, "polaris card auth v1\0" || id ||
// challenge). The number is inside the MAC so an answer cannot be passed
// off for another card.
func Respond(cardKey []byte, id string, challenge []byte) ([]byte, error) {
	if len(cardKey) != sha256.Size {
		return nil, ErrCardKey
	}
	if err := CheckID(id); err != nil {
		return nil, err
	}
	if len(challenge) < MinChallenge || len(challenge) > MaxChallenge {
		return nil, ErrChallenge
	}
	m := hmac.New(sha256.New, cardKey)
	m.Write([]byte(authLabel))
	m.Write([]byte(id))
	m.Write(challenge)
	return m.Sum(nil), nil
}

// Verify says whether response is the genuine card id's answer to
// challenge, for the card keys derived from master. A copy of the card
// number without the key (a cloned card) fails here. The comparison takes
// the same time whatever bytes differ. The caller must have drawn the
// challenge itself, freshly, and use it once: Verify cannot know a replay.
func Verify(master []byte, id string, challenge, response []byte) (bool, error) {
	key, err := Derive(master, id)
	if err != nil {
		return false, err
	}
	want, err := Respond(key, id, challenge)
	if err != nil {
		return false, err
	}
	return hmac.Equal(want, response), nil
}
