package pcsc

import "fmt"

// Error is a PC/SC return value (pcsclite.h SCARD_E_…, SCARD_W_…).
type Error uint32

const (
	ErrInvalidHandle      Error = 0x80100003
	ErrInsufficientBuffer Error = 0x80100008
	ErrUnknownReader      Error = 0x80100009
	ErrTimeout            Error = 0x8010000A
	ErrSharingViolation   Error = 0x8010000B
	ErrNoSmartcard        Error = 0x8010000C
	ErrProtoMismatch      Error = 0x8010000F
	ErrCommError          Error = 0x80100013
	ErrNotTransacted      Error = 0x80100016
	ErrReaderUnavailable  Error = 0x80100017
	ErrNoService          Error = 0x8010001D
	ErrServiceStopped     Error = 0x8010001E
	ErrUnresponsiveCard   Error = 0x80100066
	ErrUnpoweredCard      Error = 0x80100067
	ErrResetCard          Error = 0x80100068
	ErrRemovedCard        Error = 0x80100069
)

var errNames = map[Error]string{
	ErrInvalidHandle:      "invalid handle",
	ErrInsufficientBuffer: "insufficient buffer",
	ErrUnknownReader:      "unknown reader",
	ErrTimeout:            "timeout",
	ErrSharingViolation:   "sharing violation",
	ErrNoSmartcard:        "no smart card",
	ErrProtoMismatch:      "protocol mismatch",
	ErrCommError:          "communication error",
	ErrNotTransacted:      "not transacted",
	ErrReaderUnavailable:  "reader unavailable",
	ErrNoService:          "no service",
	ErrServiceStopped:     "service stopped",
	ErrUnresponsiveCard:   "unresponsive card",
	ErrUnpoweredCard:      "unpowered card",
	ErrResetCard:          "card was reset",
	ErrRemovedCard:        "card removed",
}

func (e Error) Error() string {
	if n, ok := errNames[e]; ok {
		return fmt.Sprintf("pcsc: %s (0x%08X)", n, uint32(e))
	}
	return fmt.Sprintf("pcsc: error 0x%08X", uint32(e))
}

// CardGone says whether e means the card left (or was swapped) under a
// connection: the caller has nothing to retry on that card.
func (e Error) CardGone() bool {
	switch e {
	case ErrNoSmartcard, ErrRemovedCard, ErrResetCard, ErrUnpoweredCard, ErrUnresponsiveCard, ErrNotTransacted, ErrCommError:
		return true
	}
	return false
}
