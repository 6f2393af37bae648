package pki

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// CabinetRegistry is the file, in a PKI directory, that names each
// cabinet's one valid certificate by its SHA-256 fingerprint. IssueCabinet
// writes it (a new certificate replaces, and so revokes, the old one),
// Revoke removes a cabinet; the server refuses at the handshake every
// certificate that is not the registered one of its CN.
const CabinetRegistry = "cabinets.reg"

// Fingerprint is the SHA-256 of a certificate's DER bytes, in hex.
func Fingerprint(der []byte) string {
	h := sha256.Sum256(der)
	return hex.EncodeToString(h[:])
}

// LoadRegistry reads a registry: one "<cabinet id> <fingerprint>" per line.
func LoadRegistry(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("pki: cabinet registry: %w", err)
	}
	return parseRegistry(b, path)
}

func parseRegistry(b []byte, path string) (map[string]string, error) {
	reg := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for line := 1; sc.Scan(); line++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if len(f) != 2 || CheckCabinetID(f[0]) != nil || len(f[1]) != 64 {
			return nil, fmt.Errorf("pki: %s:%d: want \"<cabinet id> <sha-256 fingerprint>\"", path, line)
		}
		reg[f[0]] = f[1]
	}
	return reg, sc.Err()
}

var registryMu sync.Mutex // IssueCabinet and Revoke in one process

// updateRegistry sets (fp != "") or removes cabinet id's entry.
func updateRegistry(dir, id, fp string) error {
	registryMu.Lock()
	defer registryMu.Unlock()
	path := filepath.Join(dir, CabinetRegistry)
	reg, err := LoadRegistry(path)
	if errors.Is(err, os.ErrNotExist) {
		reg, err = map[string]string{}, nil
	}
	if err != nil {
		return err
	}
	switch {
	case id == "": // just make sure the file exists
	case fp == "":
		delete(reg, id)
	default:
		reg[id] = fp
	}
	ids := make([]string, 0, len(reg))
	for k := range reg {
		ids = append(ids, k)
	}
	sort.Strings(ids)
	var out bytes.Buffer
	out.WriteString("# cabinet id, SHA-256 of its one valid certificate (polaris-central pki)\n")
	for _, k := range ids {
		fmt.Fprintf(&out, "%s %s\n", k, reg[k])
	}
	return WriteFile(path, out.Bytes(), 0o644)
}

// InitRegistry makes the registry file when it is missing (mint.Init).
func InitRegistry(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, CabinetRegistry)); err == nil {
		return nil
	}
	return updateRegistry(dir, "", "")
}

// Register makes the certificate now in cabinets/<id>.pem the cabinet's
// registered one (for a PKI made before the registry existed).
func Register(dir, id string) error {
	c, _ := CabinetPaths(dir, id)
	der, err := readPEM(c, "CERTIFICATE")
	if err != nil {
		return err
	}
	return updateRegistry(dir, id, Fingerprint(der))
}

// Revoke removes cabinet id from the registry: no certificate of it is
// accepted any more.
func Revoke(dir, id string) error {
	if err := CheckCabinetID(id); err != nil {
		return err
	}
	return updateRegistry(dir, id, "")
}

// RevokedError refuses a cabinet certificate that is not the registered one.
type RevokedError struct{ Cabinet, Fingerprint string }

func (e *RevokedError) Error() string {
	return fmt.Sprintf("pki: certificate %.16s… of cabinet %q is not its registered certificate (revoked or never issued)", e.Fingerprint, e.Cabinet)
}

// RegistryCheck verifies, after the chain, that a peer's certificate is
// its cabinet's registered one. The file is read again whenever it
// changes (a stat per handshake), so an issue or a revocation takes effect
// without a restart; a registry that cannot be read refuses everyone.
type RegistryCheck struct {
	Path string

	mu   sync.Mutex
	stat os.FileInfo
	reg  map[string]string
	err  error
}

func (r *RegistryCheck) current() (map[string]string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	st, err := os.Stat(r.Path)
	if err != nil {
		return nil, fmt.Errorf("pki: cabinet registry: %w", err)
	}
	if r.stat == nil || !st.ModTime().Equal(r.stat.ModTime()) || st.Size() != r.stat.Size() || !os.SameFile(st, r.stat) {
		r.reg, r.err = LoadRegistry(r.Path)
		r.stat = st
	}
	return r.reg, r.err
}

// Has reports whether cabinet id has a registered certificate.
func (r *RegistryCheck) Has(id string) bool {
	reg, err := r.current()
	return err == nil && reg[id] != ""
}

// VerifyConnection is a tls.Config.VerifyConnection.
func (r *RegistryCheck) VerifyConnection(cs tls.ConnectionState) error {
	if len(cs.VerifiedChains) == 0 || len(cs.VerifiedChains[0]) == 0 {
		return &NoCabinetError{Reason: "certificate not verified"}
	}
	leaf := cs.VerifiedChains[0][0]
	return r.Check(leaf)
}

// Check refuses leaf unless it is the registered certificate of its CN.
func (r *RegistryCheck) Check(leaf *x509.Certificate) error {
	reg, err := r.current()
	if err != nil {
		return err
	}
	id, fp := leaf.Subject.CommonName, Fingerprint(leaf.Raw)
	if reg[id] != fp {
		return &RevokedError{Cabinet: id, Fingerprint: fp}
	}
	return nil
}

// Export copies what the central server needs from the offline PKI in dir
// to its own directory to: the CA certificate, the server certificate and
// key, the signing key and its public half, and the cabinet registry —
// never the CA key.
func Export(dir, to string) error {
	if err := os.MkdirAll(to, 0o700); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		mode os.FileMode
	}{{CACert, 0o644}, {ServerCert, 0o644}, {ServerKey, 0o600}, {SigningKey, 0o600}, {SigningPub, 0o644}, {CabinetRegistry, 0o644}} {
		src, err := os.Open(filepath.Join(dir, f.name))
		if err != nil {
			return fmt.Errorf("pki export: %w", err)
		}
		b, err := io.ReadAll(src)
		src.Close()
		if err != nil {
			return err
		}
		if err := WriteFile(filepath.Join(to, f.name), b, f.mode); err != nil {
			return err
		}
	}
	return nil
}

// CheckPrivateFile refuses a key file that others may read or that another
// user owns: the server's TLS key and the signing key (which may later
// live in an HSM) must be the service's alone.
func CheckPrivateFile(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("pki: %w", err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("pki: %s has mode %v: a private key must be 0600", path, st.Mode().Perm())
	}
	if uid, ok := fileOwner(st); ok && uid != os.Geteuid() {
		return fmt.Errorf("pki: %s belongs to uid %d, not to this service (uid %d)", path, uid, os.Geteuid())
	}
	return nil
}

// WriteFile writes through a temporary file, a sync and a rename, so a
// crash never leaves half a file (a key, the registry) behind.
func WriteFile(path string, b []byte, mode os.FileMode) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, mode)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
