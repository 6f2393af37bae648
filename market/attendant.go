package market

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// How the cabinet learns who the attendant paying a handpay is
// (Profile.AttendantID).
const (
	// AttendantKey: the attendant key alone; the receipt and the ledger
	// name the key, not a person. For markets that do not ask for more.
	AttendantKey = "key"
	// AttendantPIN: after the key, the attendant enters a PIN with the
	// deck's buttons; the PINs are the profile's attendants, hashed.
	AttendantPIN = "pin"
)

// PINLen is the length of an attendant's PIN, entered digit by digit on
// the deck.
const PINLen = 4

// Attendant is one member of staff who may pay handpays. Only the PIN's
// hash is configured: it is never printed, shown or logged.
type Attendant struct {
	ID      string `toml:"id"`       // printed on the receipt, written to the ledger
	PINHash string `toml:"pin_hash"` // HashPIN's output
}

// HashPIN is how a PIN is configured: "sha256:<salt hex>:<digest hex>",
// the digest of the salt followed by the PIN. A salt per attendant keeps
// two attendants with the same PIN from having the same hash.
func HashPIN(pin string, salt []byte) string {
	h := sha256.Sum256(append(append([]byte{}, salt...), pin...))
	return "sha256:" + hex.EncodeToString(salt) + ":" + hex.EncodeToString(h[:])
}

// Matches reports whether pin is this attendant's PIN.
func (a Attendant) Matches(pin string) bool {
	salt, _, err := splitHash(a.PINHash)
	if err != nil {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(HashPIN(pin, salt)), []byte(a.PINHash)) == 1
}

func splitHash(s string) (salt, digest []byte, err error) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 || parts[0] != "sha256" {
		return nil, nil, errors.New(`pin_hash is not "sha256:<salt>:<digest>"`)
	}
	if salt, err = hex.DecodeString(parts[1]); err != nil || len(salt) < 8 {
		return nil, nil, errors.New("pin_hash: the salt is not at least 8 bytes of hex")
	}
	if digest, err = hex.DecodeString(parts[2]); err != nil || len(digest) != sha256.Size {
		return nil, nil, errors.New("pin_hash: the digest is not 32 bytes of hex")
	}
	return salt, digest, nil
}

// AttendantByPIN returns the attendant whose PIN this is.
func (p *Profile) AttendantByPIN(pin string) (Attendant, bool) {
	for _, a := range p.Attendants {
		if a.Matches(pin) {
			return a, true
		}
	}
	return Attendant{}, false
}

// checkAttendants: "pin" needs at least one attendant; ids are unique and
// printable; hashes are well-formed.
func (p *Profile) checkAttendants() error {
	switch p.AttendantID {
	case "":
		p.AttendantID = AttendantKey
	case AttendantKey, AttendantPIN:
	case "card":
		return errors.New(`attendant_id "card": attendant cards are not supported yet (use "pin")`)
	default:
		return fmt.Errorf("attendant_id %q is not one of key, pin", p.AttendantID)
	}
	if p.AttendantID == AttendantPIN && len(p.Attendants) == 0 {
		return errors.New(`attendant_id "pin" needs at least one [[attendants]] entry`)
	}
	seen := map[string]bool{}
	for _, a := range p.Attendants {
		if a.ID == "" || len(a.ID) > 16 || strings.ContainsFunc(a.ID, func(r rune) bool { return r < ' ' || r > '~' }) {
			return fmt.Errorf("attendant id %q must be 1 to 16 printable ASCII characters", a.ID)
		}
		if seen[a.ID] {
			return fmt.Errorf("attendant %q configured twice", a.ID)
		}
		seen[a.ID] = true
		if _, _, err := splitHash(a.PINHash); err != nil {
			return fmt.Errorf("attendant %q: %w", a.ID, err)
		}
	}
	return nil
}
