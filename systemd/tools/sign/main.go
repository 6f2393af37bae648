// Command sign makes the build's Ed25519 signing key (when missing) and the
// signed software manifest of a staged install tree (firmware/verify).
//
//	go run ./systemd/tools/sign -key bin/keys/polaris-dev.key -keygen          # create if missing, print the public key
//	go run ./systemd/tools/sign -key K -root STAGE -version V                   # write STAGE/usr/share/polaris/MANIFEST
//
// Components: usr/bin/* (binary), usr/share/polaris/models/** (model),
// etc/polaris/**.toml (profile).
package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/polaris-vlt/polaris/firmware/verify"
)

func main() {
	key := flag.String("key", "", "private key file (base64); its public key is FILE.pub")
	keygen := flag.Bool("keygen", false, "create the key pair if missing and print the public key")
	root := flag.String("root", "", "staged install tree to sign")
	version := flag.String("version", "dev", "software version recorded in the manifest")
	flag.Parse()
	if *key == "" {
		fail("-key is required")
	}
	if *keygen {
		if _, err := os.Stat(*key); os.IsNotExist(err) {
			pub, priv, err := ed25519.GenerateKey(rand.Reader)
			check(err)
			check(os.MkdirAll(filepath.Dir(*key), 0o700))
			check(os.WriteFile(*key, []byte(base64.StdEncoding.EncodeToString(priv)+"\n"), 0o600))
			check(os.WriteFile(*key+".pub", []byte(base64.StdEncoding.EncodeToString(pub)+"\n"), 0o644))
			fmt.Fprintf(os.Stderr, "sign: created DEVELOPMENT signing key %s (not for certified builds)\n", *key)
		}
		b, err := os.ReadFile(*key + ".pub")
		check(err)
		fmt.Println(strings.TrimSpace(string(b)))
		if *root == "" {
			return
		}
	}
	if *root == "" {
		fail("-root is required")
	}
	b, err := os.ReadFile(*key)
	check(err)
	priv, err := verify.ParsePrivateKey(string(b))
	check(err)

	var entries []verify.Entry
	check(filepath.WalkDir(*root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(*root, p)
		rel = filepath.ToSlash(rel)
		switch {
		case strings.HasPrefix(rel, "usr/bin/"):
			entries = append(entries, verify.Entry{Kind: verify.KindBinary, Path: rel})
		case strings.HasPrefix(rel, "usr/share/polaris/models/"):
			entries = append(entries, verify.Entry{Kind: verify.KindModel, Path: rel})
		case strings.HasPrefix(rel, "etc/polaris/") && strings.HasSuffix(rel, ".toml"):
			entries = append(entries, verify.Entry{Kind: verify.KindProfile, Path: rel})
		}
		return nil
	}))
	sort.Slice(entries, func(i, j int) bool { return entries[i].Path < entries[j].Path })
	mdir := filepath.Join(*root, "usr/share/polaris")
	m, err := verify.Build(*root, mdir, *version, entries)
	check(err)
	check(os.MkdirAll(mdir, 0o755))
	out := filepath.Join(mdir, "MANIFEST")
	check(os.WriteFile(out, m.Sign(priv), 0o644))
	fmt.Fprintf(os.Stderr, "sign: %s: %d components, manifest sha256 %x\n", out, len(entries), m.Digest)
}

func check(err error) {
	if err != nil {
		fail(err.Error())
	}
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "sign:", msg)
	os.Exit(2)
}
