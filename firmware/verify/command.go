package verify

import (
	"crypto/ed25519"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// DefaultManifest is where the package installs the manifest, found from the
// running binary (…/bin/polaris → …/share/polaris/MANIFEST) so a staged or
// scratch-root install verifies itself too.
func DefaultManifest() string {
	exe, err := os.Executable()
	if err != nil {
		return "/usr/share/polaris/MANIFEST"
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	return filepath.Join(filepath.Dir(exe), "..", "share", "polaris", "MANIFEST")
}

// Command is `polaris verify [-manifest FILE] [-pubkey FILE] [-seed HEX]`.
// Exit 0: the signed manifest matches every component; 3: it does not (the
// cabinet would refuse play and money); 2: usage.
func Command(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	manifest := fs.String("manifest", DefaultManifest(), "signed software manifest")
	pubFile := fs.String("pubkey", "", "Ed25519 public key file (default: the key built into this binary)")
	seedHex := fs.String("seed", "", "hex seed from the host or regulator: also print HMAC-SHA256 seeded digests")
	if fs.Parse(args) != nil {
		return 2
	}

	var pub ed25519.PublicKey
	var err error
	if *pubFile != "" {
		var b []byte
		if b, err = os.ReadFile(*pubFile); err == nil {
			pub, err = ParsePublicKey(string(b))
		}
	} else {
		pub, err = Builtin()
	}
	if err != nil {
		fmt.Fprintln(stderr, "polaris verify:", err)
		return 2
	}
	var seed []byte
	if *seedHex != "" {
		if seed, err = hex.DecodeString(*seedHex); err != nil || len(seed) == 0 {
			fmt.Fprintln(stderr, "polaris verify: -seed must be hex digits")
			return 2
		}
	}

	m, err := CheckManifest(*manifest, pub)
	if m != nil {
		fmt.Fprintf(stdout, "manifest %s\nversion  %s\nsha256   %x\n", *manifest, m.Version, m.Digest)
		for _, e := range m.Entries {
			fmt.Fprintf(stdout, "%-7s %x  %s\n", e.Kind, e.SHA256, e.Path)
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "polaris:", err)
		return 3
	}
	if seed != nil {
		per, all, err := m.Seeded(RootDir(*manifest, m), seed)
		if err != nil {
			fmt.Fprintln(stderr, "polaris verify:", err)
			return 3
		}
		fmt.Fprintf(stdout, "seed %x\n", seed)
		for i, e := range m.Entries {
			fmt.Fprintf(stdout, "hmac-sha256 %x  %s\n", per[i], e.Path)
		}
		fmt.Fprintf(stdout, "seeded digest %x\n", all)
	}
	fmt.Fprintf(stdout, "verified: %d components match the signed manifest\n", len(m.Entries))
	return 0
}
