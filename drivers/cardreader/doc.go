// Package cardreader is the player card reader as the cabinet sees it: a
// narrow port (Reader: events for a card in and out and for the reader
// lost and back; Authenticate, a challenge carried to the card and its
// answer carried back), the APDUs of the Polaris card applet, and a Fake
// for cabinet tests. The PC/SC implementation talking to pcscd is in pcsc,
// the card emulator speaking vpcd's socket protocol in cardemu; the scheme
// (keys, answers, the verifier's check) is in the leaf package cardauth and
// written down in CARDS.md.
package cardreader
