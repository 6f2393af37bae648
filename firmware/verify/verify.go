package verify

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// BuiltinPublicKey is the base64 Ed25519 public key the build signed with,
// set by the linker: -X github.com/polaris-vlt/polaris/firmware/verify.BuiltinPublicKey=…
var BuiltinPublicKey string

// Kinds of component.
const (
	KindBinary  = "binary"
	KindModel   = "model"
	KindProfile = "profile"
)

const header = "polaris-manifest 1"

// Entry is one component.
type Entry struct {
	Kind   string
	Path   string // slash-separated, relative to the manifest's root
	SHA256 [32]byte
}

// Manifest is a parsed, signature-checked manifest.
type Manifest struct {
	Version string
	Root    string // as written: relative to the manifest's directory, or absolute
	Entries []Entry
	// Digest is SHA-256 over the whole signed manifest: store it in critical
	// memory and compare at the next start to detect a program change (check 9).
	Digest [32]byte
}

// ErrSignature: the manifest is not signed by the given key (or was edited).
var ErrSignature = errors.New("manifest signature does not verify")

// Problem is one failing component.
type Problem struct {
	Kind, Path string
	Reason     string
}

// Error is a failed verification. Its message is what the cabinet shows.
type Error struct {
	Manifest string
	Problems []Problem
	Err      error // a manifest-level failure (unreadable, bad signature), else nil
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("SOFTWARE VERIFICATION FAILED, play and money refused: ")
	if e.Err != nil {
		fmt.Fprintf(&b, "%s: %v", e.Manifest, e.Err)
		return b.String()
	}
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s %s: %s", p.Kind, p.Path, p.Reason)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// ParsePublicKey reads a base64 Ed25519 public key (the contents of a .pub file).
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("verify: not a base64 Ed25519 public key")
	}
	return ed25519.PublicKey(b), nil
}

// ParsePrivateKey reads a base64 Ed25519 private key (64 bytes, seed+public).
func ParsePrivateKey(s string) (ed25519.PrivateKey, error) {
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("verify: not a base64 Ed25519 private key")
	}
	return ed25519.PrivateKey(b), nil
}

// Builtin returns the public key linked into this binary.
func Builtin() (ed25519.PublicKey, error) {
	if BuiltinPublicKey == "" {
		return nil, errors.New("verify: no public key built in (build with make build-arm64/deb, or pass one)")
	}
	return ParsePublicKey(BuiltinPublicKey)
}

// HashFile returns the SHA-256 of a file's contents.
func HashFile(path string) ([32]byte, error) {
	var d [32]byte
	f, err := os.Open(path)
	if err != nil {
		return d, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return d, err
	}
	copy(d[:], h.Sum(nil))
	return d, nil
}

// Build hashes the listed files under root. Entries' SHA256 fields are
// ignored and filled in; paths must be relative and stay inside root.
func Build(root, manifestDir, version string, entries []Entry) (*Manifest, error) {
	rel, err := filepath.Rel(manifestDir, root)
	if err != nil {
		return nil, err
	}
	m := &Manifest{Version: version, Root: filepath.ToSlash(rel)}
	seen := map[string]bool{}
	for _, e := range entries {
		if err := checkEntry(e.Kind, e.Path); err != nil {
			return nil, err
		}
		if seen[e.Path] {
			return nil, fmt.Errorf("verify: %s listed twice", e.Path)
		}
		seen[e.Path] = true
		d, err := HashFile(filepath.Join(root, filepath.FromSlash(e.Path)))
		if err != nil {
			return nil, fmt.Errorf("verify: %w", err)
		}
		e.SHA256 = d
		m.Entries = append(m.Entries, e)
	}
	if len(m.Entries) == 0 {
		return nil, errors.New("verify: empty manifest")
	}
	return m, nil
}

func checkEntry(kind, p string) error {
	switch kind {
	case KindBinary, KindModel, KindProfile:
	default:
		return fmt.Errorf("verify: unknown kind %q", kind)
	}
	if p == "" || strings.HasPrefix(p, "/") || strings.ContainsAny(p, " \t\r\n") {
		return fmt.Errorf("verify: bad path %q (relative, no spaces)", p)
	}
	for _, el := range strings.Split(p, "/") {
		if el == ".." || el == "." || el == "" {
			return fmt.Errorf("verify: bad path %q", p)
		}
	}
	return nil
}

func (m *Manifest) body() []byte {
	var b bytes.Buffer
	fmt.Fprintln(&b, header)
	fmt.Fprintf(&b, "version %s\n", m.Version)
	fmt.Fprintf(&b, "root %s\n", m.Root)
	for _, e := range m.Entries {
		fmt.Fprintf(&b, "%s %x  %s\n", e.Kind, e.SHA256, e.Path)
	}
	return b.Bytes()
}

// Sign returns the manifest's file contents, signed with priv.
func (m *Manifest) Sign(priv ed25519.PrivateKey) []byte {
	body := m.body()
	sig := ed25519.Sign(priv, body)
	out := append(body, "signature "+base64.StdEncoding.EncodeToString(sig)+"\n"...)
	m.Digest = sha256.Sum256(out)
	return out
}

// Parse checks the signature over data, then parses it. Nothing unsigned is
// interpreted.
func Parse(data []byte, pub ed25519.PublicKey) (*Manifest, error) {
	i := bytes.LastIndex(data, []byte("\nsignature "))
	if i < 0 {
		return nil, errors.New("no signature line")
	}
	body, sigLine := data[:i+1], strings.TrimSpace(string(data[i+1:]))
	sig, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(sigLine, "signature "))
	if err != nil || len(sig) != ed25519.SignatureSize || strings.Contains(sigLine, "\n") {
		return nil, errors.New("malformed signature line")
	}
	if !ed25519.Verify(pub, body, sig) {
		return nil, ErrSignature
	}
	m := &Manifest{Digest: sha256.Sum256(data)}
	sc := bufio.NewScanner(bytes.NewReader(body))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case n == 1:
			if line != header {
				return nil, fmt.Errorf("line 1: not a %q", header)
			}
		case strings.HasPrefix(line, "version "):
			m.Version = strings.TrimPrefix(line, "version ")
		case strings.HasPrefix(line, "root "):
			m.Root = strings.TrimPrefix(line, "root ")
		default:
			f := strings.Fields(line)
			if len(f) != 3 {
				return nil, fmt.Errorf("line %d: want kind digest path", n)
			}
			if err := checkEntry(f[0], f[2]); err != nil {
				return nil, fmt.Errorf("line %d: %v", n, err)
			}
			d, err := hex.DecodeString(f[1])
			if err != nil || len(d) != 32 {
				return nil, fmt.Errorf("line %d: bad SHA-256", n)
			}
			e := Entry{Kind: f[0], Path: f[2]}
			copy(e.SHA256[:], d)
			m.Entries = append(m.Entries, e)
		}
	}
	if m.Root == "" || len(m.Entries) == 0 {
		return nil, errors.New("no root or no components")
	}
	return m, nil
}

// Load reads and signature-checks a manifest file; errors are *Error.
func Load(manifestPath string, pub ed25519.PublicKey) (*Manifest, error) {
	data, err := os.ReadFile(manifestPath)
	if err == nil {
		var m *Manifest
		if m, err = Parse(data, pub); err == nil {
			return m, nil
		}
	}
	return nil, &Error{Manifest: manifestPath, Err: err}
}

// RootDir is the directory the manifest's paths are relative to.
func RootDir(manifestPath string, m *Manifest) string {
	if filepath.IsAbs(m.Root) {
		return m.Root
	}
	return filepath.Join(filepath.Dir(manifestPath), filepath.FromSlash(m.Root))
}

// Verify re-hashes every component under root; nil when all match.
func (m *Manifest) Verify(root string) []Problem {
	var ps []Problem
	for _, e := range m.Entries {
		d, err := HashFile(filepath.Join(root, filepath.FromSlash(e.Path)))
		switch {
		case err != nil:
			ps = append(ps, Problem{e.Kind, e.Path, fmt.Sprintf("cannot read: %v", errors.Unwrap(err))})
		case d != e.SHA256:
			ps = append(ps, Problem{e.Kind, e.Path, fmt.Sprintf("SHA-256 %x, manifest says %x", d[:8], e.SHA256[:8])})
		}
	}
	return ps
}

// Check is the start-up verification: the manifest's signature under pub,
// then every component's digest. nil means the certified software is what is
// installed; otherwise a *Error to show, log, and refuse play and money on.
func Check(manifestPath string, pub ed25519.PublicKey) error {
	_, err := CheckManifest(manifestPath, pub)
	return err
}

// CheckManifest is Check that also returns the manifest (for its Digest).
func CheckManifest(manifestPath string, pub ed25519.PublicKey) (*Manifest, error) {
	m, err := Load(manifestPath, pub)
	if err != nil {
		return nil, err
	}
	if ps := m.Verify(RootDir(manifestPath, m)); ps != nil {
		return m, &Error{Manifest: manifestPath, Problems: ps}
	}
	return m, nil
}

// Seeded returns HMAC-SHA256(seed, component) for each entry, and the
// combined digest: HMAC-SHA256(seed, for each entry in order: path, NUL,
// 8-byte big-endian length, contents). It hashes what is on disk now, so it
// answers for the installed software, not for the manifest.
func (m *Manifest) Seeded(root string, seed []byte) (per [][32]byte, all [32]byte, err error) {
	total := hmac.New(sha256.New, seed)
	for _, e := range m.Entries {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(e.Path)))
		if err != nil {
			return nil, all, err
		}
		one := hmac.New(sha256.New, seed)
		one.Write(data)
		var d [32]byte
		copy(d[:], one.Sum(nil))
		per = append(per, d)
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(data)))
		total.Write([]byte(e.Path))
		total.Write([]byte{0})
		total.Write(n[:])
		total.Write(data)
	}
	copy(all[:], total.Sum(nil))
	return per, all, nil
}

// ErrUnsigned: this binary carries no public key — a developer's plain
// `go build`, not a signed build. The caller decides: the devkit may run
// with a warning; a cabinet profile must refuse play and money.
var ErrUnsigned = errors.New("SOFTWARE VERIFICATION FAILED, play and money refused: unsigned build (no public key linked in)")

// AtStart is the start-up gate with the key built into this binary and the
// manifest beside it (DefaultManifest). It returns ErrUnsigned for an
// unsigned build, a *Error on any mismatch, or the verified manifest.
func AtStart() (*Manifest, error) {
	if BuiltinPublicKey == "" {
		return nil, ErrUnsigned
	}
	pub, err := Builtin()
	if err != nil {
		return nil, &Error{Manifest: "(built-in key)", Err: err}
	}
	return CheckManifest(DefaultManifest(), pub)
}
