package verify

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tree lays out an installed system under a scratch root: a binary, a model
// and a profile, with the manifest in usr/share/polaris as the package does.
func tree(t *testing.T) (root, manifest string, pub ed25519.PublicKey, priv ed25519.PrivateKey) {
	t.Helper()
	root = t.TempDir()
	files := map[string][]byte{
		"usr/bin/polaris":                        bytes.Repeat([]byte("\x7fELF binary "), 1000),
		"usr/share/polaris/models/wishstar.json": []byte(`{"game":"wishstar","reels":[[1,2,3]]}`),
		"etc/polaris/board/rpi-cabinet.toml":     []byte("name = \"rpi-cabinet\"\n"),
		"etc/polaris/market/demo.toml":           []byte("name = \"demo\"\n"),
	}
	for p, b := range files {
		full := filepath.Join(root, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pub, priv, _ = ed25519.GenerateKey(rand.Reader)
	mdir := filepath.Join(root, "usr/share/polaris")
	m, err := Build(root, mdir, "1.0.0", []Entry{
		{Kind: KindBinary, Path: "usr/bin/polaris"},
		{Kind: KindModel, Path: "usr/share/polaris/models/wishstar.json"},
		{Kind: KindProfile, Path: "etc/polaris/board/rpi-cabinet.toml"},
		{Kind: KindProfile, Path: "etc/polaris/market/demo.toml"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if m.Root != "../../.." {
		t.Fatalf("root = %q", m.Root)
	}
	manifest = filepath.Join(mdir, "MANIFEST")
	if err := os.WriteFile(manifest, m.Sign(priv), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, manifest, pub, priv
}

func flipByte(t *testing.T, path string, at int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[at%len(b)] ^= 0x01
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestUntamperedPasses(t *testing.T) {
	_, manifest, pub, _ := tree(t)
	m, err := CheckManifest(manifest, pub)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Entries) != 4 || m.Version != "1.0.0" {
		t.Fatalf("manifest %+v", m)
	}
}

// One flipped bit — first, middle or last byte — of a binary, a model or a
// profile is refused, naming the component and saying play is refused.
func TestTamperingOneByteIsRefused(t *testing.T) {
	for _, p := range []string{"usr/bin/polaris", "usr/share/polaris/models/wishstar.json", "etc/polaris/board/rpi-cabinet.toml", "etc/polaris/market/demo.toml"} {
		for _, at := range []int{0, 7, -1} {
			root, manifest, pub, _ := tree(t)
			full := filepath.Join(root, p)
			fi, _ := os.Stat(full)
			pos := at
			if at < 0 {
				pos = int(fi.Size()) - 1
			}
			flipByte(t, full, pos)
			err := Check(manifest, pub)
			var ve *Error
			if !errors.As(err, &ve) || len(ve.Problems) != 1 || ve.Problems[0].Path != p {
				t.Fatalf("%s byte %d: err = %v", p, pos, err)
			}
			msg := err.Error()
			if !strings.Contains(msg, "SOFTWARE VERIFICATION FAILED") || !strings.Contains(msg, "play and money refused") || !strings.Contains(msg, p) {
				t.Fatalf("message %q", msg)
			}
		}
	}
}

func TestMissingComponentIsRefused(t *testing.T) {
	root, manifest, pub, _ := tree(t)
	os.Remove(filepath.Join(root, "usr/share/polaris/models/wishstar.json"))
	var ve *Error
	if err := Check(manifest, pub); !errors.As(err, &ve) || !strings.Contains(ve.Problems[0].Reason, "cannot read") {
		t.Fatalf("err = %v", err)
	}
}

// Editing the manifest itself (to match a tampered file, or to drop a line)
// breaks the signature; so does another key.
func TestManifestEditsAndForeignKeysAreRefused(t *testing.T) {
	root, manifest, pub, _ := tree(t)
	data, _ := os.ReadFile(manifest)

	// Tamper with the binary, then "fix" its digest in the manifest.
	full := filepath.Join(root, "usr/bin/polaris")
	flipByte(t, full, 3)
	d, _ := HashFile(full)
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		if strings.HasSuffix(l, "usr/bin/polaris") {
			lines[i] = "binary " + hex.EncodeToString(d[:]) + "  usr/bin/polaris"
		}
	}
	os.WriteFile(manifest, []byte(strings.Join(lines, "\n")), 0o644)
	if err := Check(manifest, pub); !errors.Is(err, ErrSignature) {
		t.Fatalf("edited digest: err = %v", err)
	}

	// Drop a component line.
	_, manifest2, pub2, _ := tree(t)
	data2, _ := os.ReadFile(manifest2)
	cut := regexpLine(string(data2), "etc/polaris/market/demo.toml")
	os.WriteFile(manifest2, []byte(cut), 0o644)
	if err := Check(manifest2, pub2); !errors.Is(err, ErrSignature) {
		t.Fatalf("dropped line: err = %v", err)
	}

	// A manifest signed by someone else.
	_, manifest3, _, _ := tree(t)
	other, _, _ := ed25519.GenerateKey(rand.Reader)
	if err := Check(manifest3, other); !errors.Is(err, ErrSignature) {
		t.Fatalf("foreign key: err = %v", err)
	}
	// No manifest at all.
	if err := Check(filepath.Join(t.TempDir(), "MANIFEST"), pub); err == nil || !strings.Contains(err.Error(), "play and money refused") {
		t.Fatalf("missing manifest: err = %v", err)
	}
}

func regexpLine(s, suffix string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasSuffix(l, suffix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// The tree verifies wherever it is unpacked (root is relative).
func TestRelocatedTreePasses(t *testing.T) {
	root, _, pub, _ := tree(t)
	moved := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.Rename(root, moved); err != nil {
		t.Fatal(err)
	}
	if err := Check(filepath.Join(moved, "usr/share/polaris/MANIFEST"), pub); err != nil {
		t.Fatal(err)
	}
}

func TestSeededDigest(t *testing.T) {
	root, manifest, pub, _ := tree(t)
	m, err := CheckManifest(manifest, pub)
	if err != nil {
		t.Fatal(err)
	}
	per1, all1, err := m.Seeded(root, []byte{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	_, all2, _ := m.Seeded(root, []byte{1, 2, 4})
	if all1 == all2 {
		t.Fatal("different seeds give the same digest")
	}
	if len(per1) != 4 {
		t.Fatalf("per = %d", len(per1))
	}
	_, again, _ := m.Seeded(root, []byte{1, 2, 3})
	if again != all1 {
		t.Fatal("not deterministic")
	}
	flipByte(t, filepath.Join(root, "etc/polaris/market/demo.toml"), 2)
	per3, all3, _ := m.Seeded(root, []byte{1, 2, 3})
	if all3 == all1 || per3[3] == per1[3] || per3[0] != per1[0] {
		t.Fatal("seeded digest does not follow the tampered profile alone")
	}
}

func TestBuildRefusesBadPaths(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"/etc/x", "../x", "a/../b", "a b", ""} {
		if _, err := Build(root, root, "v", []Entry{{Kind: KindBinary, Path: p}}); err == nil {
			t.Errorf("path %q accepted", p)
		}
	}
	if _, err := Build(root, root, "v", []Entry{{Kind: "firmware", Path: "x"}}); err == nil {
		t.Error("unknown kind accepted")
	}
}

func TestKeys(t *testing.T) {
	if _, err := ParsePublicKey("bm90IGEga2V5"); err == nil {
		t.Fatal("short key accepted")
	}
	BuiltinPublicKey = ""
	if _, err := Builtin(); err == nil {
		t.Fatal("empty builtin accepted")
	}
}

func TestAtStartUnsigned(t *testing.T) {
	BuiltinPublicKey = ""
	if _, err := AtStart(); !errors.Is(err, ErrUnsigned) {
		t.Fatalf("err = %v", err)
	}
}
