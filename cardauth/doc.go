// Package cardauth is the player card scheme, both ends of it in one leaf
// (the standard library only): the card number's form, the per-card key
// derived from the operator's master key, the card's answer to a
// challenge and the verifier's check. The card emulator answers with it;
// the central system, which alone holds the master key, verifies with it;
// the reader in between only carries bytes. drivers/cardreader/CARDS.md
// writes the scheme down with its APDUs.
package cardauth
