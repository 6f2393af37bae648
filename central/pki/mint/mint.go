// Package mint makes a PKI directory (central/pki lays it out and loads
// it): a development certificate authority, the central system's server
// certificate, one client certificate per cabinet and the outcome-signing
// key. Only the central system and the devkit make keys; the cabinet
// binary loads them with central/pki and links no random source.
package mint

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/polaris-vlt/polaris/central/pki"
)

// Validity periods of what Init and IssueCabinet create.
var (
	CAValidity   = 10 * 365 * 24 * time.Hour
	LeafValidity = 2 * 365 * 24 * time.Hour
	backdate     = time.Hour // tolerate small clock differences
)

// Init creates whatever of the CA, the server certificate (for hosts: DNS
// names or IP addresses) and the signing key is missing in dir. Existing
// files are kept, so Init is safe to call at every start.
func Init(dir string, hosts []string, now time.Time) error {
	if err := os.MkdirAll(filepath.Join(dir, pki.CabinetsSubdir), 0o700); err != nil {
		return err
	}
	if !exists(filepath.Join(dir, pki.CACert)) {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return err
		}
		tmpl := &x509.Certificate{
			Subject:               pkix.Name{CommonName: "Polaris development CA", Organization: []string{"Polaris"}},
			NotBefore:             now.Add(-backdate),
			NotAfter:              now.Add(CAValidity),
			IsCA:                  true,
			BasicConstraintsValid: true,
			KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		}
		if err := writeCert(dir, pki.CACert, pki.CAKey, tmpl, nil, key, key); err != nil {
			return err
		}
	}
	if !exists(filepath.Join(dir, pki.ServerCert)) {
		if len(hosts) == 0 {
			hosts = []string{"localhost", "127.0.0.1", "::1"}
		}
		tmpl := &x509.Certificate{
			Subject:     pkix.Name{CommonName: "polaris-central", Organization: []string{"Polaris"}},
			NotBefore:   now.Add(-backdate),
			NotAfter:    now.Add(LeafValidity),
			KeyUsage:    x509.KeyUsageDigitalSignature,
			ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		}
		for _, h := range hosts {
			if ip := net.ParseIP(h); ip != nil {
				tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
			} else {
				tmpl.DNSNames = append(tmpl.DNSNames, h)
			}
		}
		if err := issue(dir, pki.ServerCert, pki.ServerKey, tmpl); err != nil {
			return err
		}
	}
	if err := pki.InitRegistry(dir); err != nil {
		return err
	}
	if !exists(filepath.Join(dir, pki.SigningKey)) {
		pub, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return err
		}
		if err := writeKey(filepath.Join(dir, pki.SigningKey), priv); err != nil {
			return err
		}
		der, err := x509.MarshalPKIXPublicKey(pub)
		if err != nil {
			return err
		}
		if err := writePEM(filepath.Join(dir, pki.SigningPub), "PUBLIC KEY", der, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// IssueCabinet signs a client certificate for cabinet id with the CA in dir
// and writes cabinets/<id>.pem and .key. It returns both paths.
func IssueCabinet(dir, id string, now time.Time) (certPath, keyPath string, err error) {
	if err := pki.CheckCabinetID(id); err != nil {
		return "", "", err
	}
	tmpl := &x509.Certificate{
		Subject:     pkix.Name{CommonName: id, Organization: []string{"Polaris cabinet"}},
		NotBefore:   now.Add(-backdate),
		NotAfter:    now.Add(LeafValidity),
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	c, k := filepath.Join(pki.CabinetsSubdir, id+".pem"), filepath.Join(pki.CabinetsSubdir, id+".key")
	if err := issue(dir, c, k, tmpl); err != nil {
		return "", "", err
	}
	// The new certificate is the cabinet's only one: any earlier one is
	// revoked from here on.
	if err := pki.Register(dir, id); err != nil {
		return "", "", err
	}
	return filepath.Join(dir, c), filepath.Join(dir, k), nil
}

func issue(dir, certName, keyName string, tmpl *x509.Certificate) error {
	caCert, caKey, err := loadCA(dir)
	if err != nil {
		return err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	return writeCert(dir, certName, keyName, tmpl, caCert, key, caKey)
}

func loadCA(dir string) (*x509.Certificate, crypto.Signer, error) {
	pair, err := tls.LoadX509KeyPair(filepath.Join(dir, pki.CACert), filepath.Join(dir, pki.CAKey))
	if err != nil {
		return nil, nil, fmt.Errorf("pki: load CA: %w", err)
	}
	cert, err := x509.ParseCertificate(pair.Certificate[0])
	if err != nil {
		return nil, nil, err
	}
	signer, ok := pair.PrivateKey.(crypto.Signer)
	if !ok {
		return nil, nil, errors.New("pki: CA key cannot sign")
	}
	return cert, signer, nil
}

func writeCert(dir, certName, keyName string, tmpl, parent *x509.Certificate, key *ecdsa.PrivateKey, signer crypto.Signer) error {
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 126))
	if err != nil {
		return err
	}
	tmpl.SerialNumber = serial
	if parent == nil {
		parent = tmpl
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, key.Public(), signer)
	if err != nil {
		return err
	}
	if err := writeKey(filepath.Join(dir, keyName), key); err != nil {
		return err
	}
	return writePEM(filepath.Join(dir, certName), "CERTIFICATE", der, 0o644)
}

func writeKey(path string, key any) error {
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return err
	}
	return writePEM(path, "PRIVATE KEY", der, 0o600)
}

// writePEM writes one PEM block with pki.WriteFile.
func writePEM(path, typ string, der []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return pki.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), mode)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
