package players

import (
	"errors"

	"github.com/polaris-vlt/polaris/cardauth"
)

// CardAuth verifies player cards by the card scheme (cardauth, written
// down in drivers/cardreader/CARDS.md): each card's key derived from the
// operator's master key, its answer a MAC over its number and our
// challenge. The master key is checked here, at start, not at a login.
func CardAuth(master []byte) (CardVerifier, error) {
	if len(master) < cardauth.MinMasterKey {
		return nil, cardauth.ErrMasterKey
	}
	return cardAuth{master: append([]byte(nil), master...)}, nil
}

type cardAuth struct{ master []byte }

func (c cardAuth) Verify(card string, challenge, response []byte) error {
	ok, err := cardauth.Verify(c.master, card, challenge, response)
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("the answer is not the card's (a copied card number without its key)")
	}
	return nil
}
