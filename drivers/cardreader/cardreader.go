package cardreader

import (
	"context"
	"errors"
	"fmt"
)

// Event is what a reader reports, in order, on its Events channel.
type Event interface{ cardEvent() }

// CardInserted: a Polaris player card is in the reader; CardID is the
// number it gave. Nothing about it is proven yet: Authenticate proves it.
type CardInserted struct {
	Reader string
	CardID string
	ATR    []byte
}

// CardRemoved: the card that was reported inserted left the reader; an
// empty CardID is an unknown card (UnknownCard) leaving.
type CardRemoved struct {
	Reader string
	CardID string
}

// UnknownCard: a card is in the reader but it is not a Polaris player card
// (no applet, or answers that make no sense). Reason says why, for the log.
type UnknownCard struct {
	Reader string
	ATR    []byte
	Reason string
}

// ReaderLost: the reader (or pcscd) is gone; a card that was in counts as
// removed (a CardRemoved comes first). ReaderBack follows when it returns.
type ReaderLost struct {
	Reader string
	Err    error
}

// ReaderBack: the reader is there (again); any card in it is reported next.
type ReaderBack struct{ Reader string }

func (CardInserted) cardEvent() {}
func (CardRemoved) cardEvent()  {}
func (UnknownCard) cardEvent()  {}
func (ReaderLost) cardEvent()   {}
func (ReaderBack) cardEvent()   {}

// Response is a card's answer to a challenge, for the verifier (the
// central system, which holds the master key: cardauth.Verify).
type Response struct {
	CardID string
	MAC    []byte
}

// Reader is the port the cabinet drives.
type Reader interface {
	// Events is closed by Close.
	Events() <-chan Event
	// Authenticate carries challenge (cardauth.MinChallenge..MaxChallenge
	// bytes) to the card in the reader and its answer back. It fails, and
	// nothing else happens, with ErrNoCard, ErrCardRemoved (the card left
	// or was swapped during the exchange), ErrReaderLost, or a
	// *BadResponseError (the card answered something the applet never
	// does).
	Authenticate(ctx context.Context, challenge []byte) (Response, error)
	Close() error
}

var (
	ErrNoCard      = errors.New("cardreader: no player card in the reader")
	ErrCardRemoved = errors.New("cardreader: card removed during the exchange")
	ErrReaderLost  = errors.New("cardreader: reader not available")
	ErrClosed      = errors.New("cardreader: reader closed")
	ErrChallenge   = errors.New("cardreader: challenge length out of range")
)

// BadResponseError: the card's answer to Command was not what the applet
// sends (a status word other than 90 00, or data of the wrong form).
type BadResponseError struct {
	Command string
	SW      uint16 // 0 when the answer was too short to have one
	Detail  string
}

func (e *BadResponseError) Error() string {
	if e.SW == 0 {
		return fmt.Sprintf("cardreader: %s: %s", e.Command, e.Detail)
	}
	return fmt.Sprintf("cardreader: %s: status %04X: %s", e.Command, e.SW, e.Detail)
}
