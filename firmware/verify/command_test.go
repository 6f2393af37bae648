package verify

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stage lays out an install tree as the package does — this test binary as
// usr/bin/polaris, the real math models and profiles — and signs it.
func stage(t *testing.T) (root, manifest, pubFile string) {
	t.Helper()
	root = t.TempDir()
	cp := func(src, dst string) {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		full := filepath.Join(root, dst)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	exe, _ := os.Executable() // a real binary: this test's own
	cp(exe, "usr/bin/polaris")
	cp("../../engine/wishstar/model/wishstar.json", "usr/share/polaris/models/wishstar.json")
	cp("../../engine/magicstars/model/magicstars.json", "usr/share/polaris/models/magicstars.json")
	cp("../../board/profiles/rpi-cabinet.toml", "etc/polaris/board/rpi-cabinet.toml")
	cp("../../market/profiles/demo.toml", "etc/polaris/market/demo.toml")

	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	mdir := filepath.Join(root, "usr/share/polaris")
	m, err := Build(root, mdir, "test", []Entry{
		{Kind: KindBinary, Path: "usr/bin/polaris"},
		{Kind: KindModel, Path: "usr/share/polaris/models/magicstars.json"},
		{Kind: KindModel, Path: "usr/share/polaris/models/wishstar.json"},
		{Kind: KindProfile, Path: "etc/polaris/board/rpi-cabinet.toml"},
		{Kind: KindProfile, Path: "etc/polaris/market/demo.toml"},
	})
	if err != nil {
		t.Fatal(err)
	}
	manifest = filepath.Join(mdir, "MANIFEST")
	os.WriteFile(manifest, m.Sign(priv), 0o644)
	pubFile = filepath.Join(t.TempDir(), "k.pub")
	os.WriteFile(pubFile, []byte(base64.StdEncoding.EncodeToString(pub)), 0o644)
	return root, manifest, pubFile
}

// runVerify runs the subcommand in-process, returning its exit code, stdout, stderr.
func runVerify(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errs strings.Builder
	code := Command(args, &out, &errs)
	return code, out.String(), errs.String()
}

func TestVerifyCommand(t *testing.T) {
	root, manifest, pub := stage(t)
	code, out, errs := runVerify(t, "-manifest", manifest, "-pubkey", pub)
	if code != 0 || !strings.Contains(out, "verified: 5 components") || !strings.Contains(out, "usr/bin/polaris") {
		t.Fatalf("untampered: code %d\n%s%s", code, out, errs)
	}

	code, out1, _ := runVerify(t, "-manifest", manifest, "-pubkey", pub, "-seed", "00112233")
	_, out2, _ := runVerify(t, "-manifest", manifest, "-pubkey", pub, "-seed", "00112234")
	if code != 0 || strings.Count(out1, "hmac-sha256 ") != 5 || seeded(out1) == "" || seeded(out1) == seeded(out2) {
		t.Fatalf("seeded: code %d\n%s", code, out1)
	}
	if c, _, _ := runVerify(t, "-manifest", manifest, "-pubkey", pub, "-seed", "xyz"); c != 2 {
		t.Fatalf("bad seed: code %d", c)
	}

	for _, p := range []string{"usr/bin/polaris", "usr/share/polaris/models/wishstar.json", "etc/polaris/market/demo.toml"} {
		full := filepath.Join(root, p)
		b, _ := os.ReadFile(full)
		b[len(b)/2] ^= 0x80
		os.WriteFile(full, b, 0o755)
		code, _, errs := runVerify(t, "-manifest", manifest, "-pubkey", pub)
		if code != 3 || !strings.Contains(errs, "play and money refused") || !strings.Contains(errs, p) {
			t.Fatalf("tampered %s: code %d, stderr %q", p, code, errs)
		}
		b[len(b)/2] ^= 0x80
		os.WriteFile(full, b, 0o755)
		if code, _, errs := runVerify(t, "-manifest", manifest, "-pubkey", pub); code != 0 {
			t.Fatalf("restored %s: code %d %s", p, code, errs)
		}
	}
}

func seeded(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "seeded digest ") {
			return l
		}
	}
	return ""
}
