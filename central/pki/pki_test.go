package pki_test

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/pki"
	"github.com/polaris-vlt/polaris/central/pki/mint"
)

func TestInitIssueAndIdentity(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	if err := mint.Init(dir, nil, now); err != nil {
		t.Fatal(err)
	}
	ca, _ := os.ReadFile(filepath.Join(dir, pki.CACert))
	if err := mint.Init(dir, nil, now); err != nil {
		t.Fatal(err)
	}
	if ca2, _ := os.ReadFile(filepath.Join(dir, pki.CACert)); !bytes.Equal(ca, ca2) {
		t.Fatal("a second Init replaced the CA")
	}
	certPath, keyPath, err := mint.IssueCabinet(dir, "cab-7", now)
	if err != nil {
		t.Fatal(err)
	}
	pair, err := tls.LoadX509KeyPair(certPath, keyPath)
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := x509.ParseCertificate(pair.Certificate[0])
	pool, _ := pki.LoadPool(filepath.Join(dir, pki.CACert))
	chains, err := leaf.Verify(x509.VerifyOptions{Roots: pool, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}, CurrentTime: now})
	if err != nil {
		t.Fatal(err)
	}
	id, err := pki.CabinetID(tls.ConnectionState{VerifiedChains: chains})
	if err != nil || id != "cab-7" {
		t.Fatalf("cabinet id %q, %v", id, err)
	}
	var nc *pki.NoCabinetError
	if _, err := pki.CabinetID(tls.ConnectionState{PeerCertificates: []*x509.Certificate{leaf}}); !errors.As(err, &nc) {
		t.Fatalf("an unverified certificate gave an id: %v", err)
	}
	var bad *pki.BadCabinetIDError
	for _, id := range []string{"", "../x", "a b", "-x"} {
		if _, _, err := mint.IssueCabinet(dir, id, now); !errors.As(err, &bad) {
			t.Errorf("id %q: %v", id, err)
		}
	}
	key, err := pki.LoadSigningKey(filepath.Join(dir, pki.SigningKey))
	if err != nil {
		t.Fatal(err)
	}
	pub, err := pki.LoadSigningPublicKey(filepath.Join(dir, pki.SigningPub))
	if err != nil || !pub.Equal(key.Public()) {
		t.Fatalf("signing key pair: %v", err)
	}
}
