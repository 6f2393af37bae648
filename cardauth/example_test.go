package cardauth_test

import (
	"bytes"
	"fmt"

	"github.com/polaris-vlt/polaris/cardauth"
)

// The three parties: the operator issues a card (its key derived from the
// master key), the card answers a challenge, the central system checks.
func Example() {
	master := bytes.Repeat([]byte{0x42}, 32) // the operator's, kept by the central system alone
	id := "4000123456789010"

	cardKey, _ := cardauth.Derive(master, id) // written into the card at issue

	challenge := bytes.Repeat([]byte{0x07}, cardauth.ChallengeLen) // central: crypto/rand, once per login
	answer, _ := cardauth.Respond(cardKey, id, challenge)          // the card (through the reader)

	ok, _ := cardauth.Verify(master, id, challenge, answer)
	clone, _ := cardauth.Respond(make([]byte, 32), id, challenge) // the number copied, the key not
	cloneOK, _ := cardauth.Verify(master, id, challenge, clone)
	fmt.Println(ok, cloneOK)
	// Output: true false
}
