// Package pki lays out and loads the keys of the central link: a development
// certificate authority, the central system's server certificate, one client
// certificate per cabinet (the cabinet id is the subject CN), and the
// Ed25519 key the central system signs outcome bodies with.
//
// A PKI directory holds:
//
//	ca.pem ca.key            the certificate authority (ECDSA P-256)
//	server.pem server.key    the central system's TLS certificate
//	signing.key signing.pub  Ed25519 outcome-signing key (PKCS#8 / PKIX PEM)
//	cabinets/<id>.pem .key   one client certificate per cabinet
//	cabinets.reg             each cabinet's one valid certificate (fingerprint)
//
// The directory with ca.key is the offline one; Export copies the rest to
// the server's own directory. central/pki/mint makes the keys; it is apart
// because making keys needs a random source, and the cabinet binary, which
// only loads its keys, imports none (check 30).
package pki

import (
	"fmt"
	"path/filepath"
	"regexp"
)

// File names inside a PKI directory.
const (
	CACert         = "ca.pem"
	CAKey          = "ca.key"
	ServerCert     = "server.pem"
	ServerKey      = "server.key"
	SigningKey     = "signing.key"
	SigningPub     = "signing.pub"
	CabinetsSubdir = "cabinets"
)

var cabinetIDSyntax = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// BadCabinetIDError refuses a cabinet id that cannot name a certificate.
type BadCabinetIDError struct{ ID string }

func (e *BadCabinetIDError) Error() string {
	return fmt.Sprintf("pki: cabinet id %q: want 1-64 of A-Z a-z 0-9 . _ - starting with a letter or digit", e.ID)
}

// CheckCabinetID returns a *BadCabinetIDError for an unusable id.
func CheckCabinetID(id string) error {
	if !cabinetIDSyntax.MatchString(id) {
		return &BadCabinetIDError{ID: id}
	}
	return nil
}

// CabinetPaths returns where mint.IssueCabinet puts cabinet id's certificate and key.
func CabinetPaths(dir, id string) (certPath, keyPath string) {
	return filepath.Join(dir, CabinetsSubdir, id+".pem"), filepath.Join(dir, CabinetsSubdir, id+".key")
}
