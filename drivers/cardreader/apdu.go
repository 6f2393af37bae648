package cardreader

import (
	"bytes"
	"fmt"

	"github.com/polaris-vlt/polaris/cardauth"
)

// AID is the Polaris player card applet's application identifier: a
// proprietary RID (F0, not registered) and "POLARIS", version 1.
var AID = []byte{0xF0, 'P', 'O', 'L', 'A', 'R', 'I', 'S', 0x01}

// The command APDUs of CARDS.md.
func SelectAPDU() []byte {
	return append(append([]byte{0x00, 0xA4, 0x04, 0x00, byte(len(AID))}, AID...), 0x00)
}

func GetIDAPDU() []byte { return []byte{0x80, 0xCA, 0x00, 0x01, cardauth.IDLen} }

func AuthenticateAPDU(challenge []byte) []byte {
	a := append([]byte{0x00, 0x88, 0x00, 0x00, byte(len(challenge))}, challenge...)
	return append(a, cardauth.MACLen)
}

// SW splits a response APDU into data and status word.
func SW(resp []byte) ([]byte, uint16, bool) {
	if len(resp) < 2 {
		return nil, 0, false
	}
	n := len(resp) - 2
	return resp[:n], uint16(resp[n])<<8 | uint16(resp[n+1]), true
}

// CheckSelect, CheckGetID and CheckAuthenticate read the applet's answers.
func CheckSelect(resp []byte) error {
	_, sw, ok := SW(resp)
	switch {
	case !ok:
		return &BadResponseError{Command: "SELECT", Detail: fmt.Sprintf("%d-byte answer", len(resp))}
	case sw == 0x6A82:
		return &BadResponseError{Command: "SELECT", SW: sw, Detail: "no Polaris applet on the card"}
	case sw != 0x9000:
		return &BadResponseError{Command: "SELECT", SW: sw, Detail: "refused"}
	}
	return nil
}

func CheckGetID(resp []byte) (string, error) {
	data, sw, ok := SW(resp)
	if !ok {
		return "", &BadResponseError{Command: "GET ID", Detail: fmt.Sprintf("%d-byte answer", len(resp))}
	}
	if sw != 0x9000 {
		return "", &BadResponseError{Command: "GET ID", SW: sw, Detail: "refused"}
	}
	id := string(data)
	if err := cardauth.CheckID(id); err != nil {
		return "", &BadResponseError{Command: "GET ID", SW: sw, Detail: fmt.Sprintf("card number %q is not 16 digits", bytes.ToValidUTF8(data, []byte("?")))}
	}
	return id, nil
}

func CheckAuthenticate(resp []byte) ([]byte, error) {
	data, sw, ok := SW(resp)
	if !ok {
		return nil, &BadResponseError{Command: "INTERNAL AUTHENTICATE", Detail: fmt.Sprintf("%d-byte answer", len(resp))}
	}
	if sw != 0x9000 {
		return nil, &BadResponseError{Command: "INTERNAL AUTHENTICATE", SW: sw, Detail: "refused"}
	}
	if len(data) != cardauth.MACLen {
		return nil, &BadResponseError{Command: "INTERNAL AUTHENTICATE", SW: sw, Detail: fmt.Sprintf("%d-byte answer, want %d", len(data), cardauth.MACLen)}
	}
	return bytes.Clone(data), nil
}
