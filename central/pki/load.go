package pki

import (
	"crypto/ed25519"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"

	"fmt"
	"os"
	"path/filepath"
)

// LoadPool reads a PEM file of CA certificates.
func LoadPool(caPath string) (*x509.CertPool, error) {
	b, err := os.ReadFile(caPath)
	if err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) {
		return nil, fmt.Errorf("pki: %s holds no certificate", caPath)
	}
	return pool, nil
}

// ServerTLS is the central system's TLS configuration: TLS 1.3, and a client
// certificate signed by the CA is required from every peer.
func ServerTLS(certPath, keyPath, caPath string) (*tls.Config, error) {
	pair, err := tls.LoadX509KeyPair(certPath, keyPath)
	if err != nil {
		return nil, fmt.Errorf("pki: server certificate: %w", err)
	}
	pool, err := LoadPool(caPath)
	if err != nil {
		return nil, err
	}
	return &tls.Config{
		Certificates: []tls.Certificate{pair},
		ClientCAs:    pool,
		ClientAuth:   tls.RequireAndVerifyClientCert,
		MinVersion:   tls.VersionTLS13,
	}, nil
}

// ServerTLSDir is ServerTLS for the files of a PKI directory.
func ServerTLSDir(dir string) (*tls.Config, error) {
	return ServerTLS(filepath.Join(dir, ServerCert), filepath.Join(dir, ServerKey), filepath.Join(dir, CACert))
}

// ClientTLS is a cabinet's TLS configuration: its own certificate, and the
// CA that must have signed the server's. serverName is the name the server
// certificate must carry (e.g. "localhost" or the central host name).
func ClientTLS(certPath, keyPath, caPath, serverName string) (*tls.Config, error) {
	pair, err := tls.LoadX509KeyPair(certPath, keyPath)
	if err != nil {
		return nil, fmt.Errorf("pki: cabinet certificate: %w", err)
	}
	pool, err := LoadPool(caPath)
	if err != nil {
		return nil, err
	}
	return &tls.Config{
		Certificates: []tls.Certificate{pair},
		RootCAs:      pool,
		ServerName:   serverName,
		MinVersion:   tls.VersionTLS13,
	}, nil
}

// CabinetTLSDir is ClientTLS for cabinet id's files in a PKI directory.
func CabinetTLSDir(dir, id, serverName string) (*tls.Config, error) {
	c, k := CabinetPaths(dir, id)
	return ClientTLS(c, k, filepath.Join(dir, CACert), serverName)
}

// NoCabinetError says a TLS peer presented no usable cabinet certificate.
type NoCabinetError struct{ Reason string }

func (e *NoCabinetError) Error() string { return "pki: no cabinet identity: " + e.Reason }

// CabinetID returns the cabinet id of a verified TLS peer: the subject CN of
// the leaf certificate that the handshake verified against the CA.
func CabinetID(state tls.ConnectionState) (string, error) {
	if len(state.VerifiedChains) == 0 || len(state.VerifiedChains[0]) == 0 {
		return "", &NoCabinetError{Reason: "certificate not verified"}
	}
	leaf := state.VerifiedChains[0][0]
	usable := false
	for _, u := range leaf.ExtKeyUsage {
		if u == x509.ExtKeyUsageClientAuth {
			usable = true
		}
	}
	if !usable {
		return "", &NoCabinetError{Reason: "certificate is not for client authentication"}
	}
	id := leaf.Subject.CommonName
	if err := CheckCabinetID(id); err != nil {
		return "", &NoCabinetError{Reason: err.Error()}
	}
	return id, nil
}

// LoadSigningKey reads the Ed25519 private key the central system signs with.
func LoadSigningKey(path string) (ed25519.PrivateKey, error) {
	der, err := readPEM(path, "PRIVATE KEY")
	if err != nil {
		return nil, err
	}
	k, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, fmt.Errorf("pki: %s: %w", path, err)
	}
	ek, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("pki: %s is not an Ed25519 key", path)
	}
	return ek, nil
}

// LoadSigningPublicKey reads the Ed25519 public key cabinets verify with.
func LoadSigningPublicKey(path string) (ed25519.PublicKey, error) {
	der, err := readPEM(path, "PUBLIC KEY")
	if err != nil {
		return nil, err
	}
	k, err := x509.ParsePKIXPublicKey(der)
	if err != nil {
		return nil, fmt.Errorf("pki: %s: %w", path, err)
	}
	ek, ok := k.(ed25519.PublicKey)
	if !ok {
		return nil, fmt.Errorf("pki: %s is not an Ed25519 key", path)
	}
	return ek, nil
}

func readPEM(path, typ string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	blk, _ := pem.Decode(b)
	if blk == nil || blk.Type != typ {
		return nil, fmt.Errorf("pki: %s: no %s block", path, typ)
	}
	return blk.Bytes, nil
}
