package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/pki"
	"github.com/polaris-vlt/polaris/central/pki/mint"
	"github.com/polaris-vlt/polaris/central/players"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/central/server"
)

// noCards stands in for the card scheme: these commands never log a card in.
type noCards struct{}

func (noCards) Verify(string, []byte, []byte) error { return errors.New("no card scheme in this test") }

// `polaris-central players ...` over the admin socket: register, card,
// limits, import, show, history, block; a refusal is an error with its reason.
func TestPlayersCommands(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "pki")
	if err := mint.Init(p, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	stls, _ := pki.ServerTLSDir(p)
	key, _ := pki.LoadSigningKey(filepath.Join(p, pki.SigningKey))
	prof, _ := players.ProfileFor("cz")
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	reg, err := players.New(players.Config{Profile: prof, HashKey: make([]byte, 32), Cards: noCards{}, RegisterKey: pub})
	if err != nil {
		t.Fatal(err)
	}
	s, err := server.New(server.Config{DBPath: filepath.Join(dir, "c.db"), TLS: stls, SigningKey: key, Players: reg})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sock := filepath.Join(dir, "admin.sock")
	hs, err := serveAdmin(sock, s)
	if err != nil {
		t.Fatal(err)
	}
	defer hs.Close()
	run := func(args ...string) error { return playersCmd(append([]string{"-socket", sock}, args...)) }
	if err := run("register", "-name", "Jan Novák", "-birth", "1980-01-31", "-doc", "AB123456", "-verified-by", "clerk 7"); err != nil {
		t.Fatal(err)
	}
	if err := run("register", "-name", "Jan Novák", "-birth", "1980-01-31", "-doc", "AB123456", "-verified-by", "clerk 7"); err == nil || !strings.Contains(err.Error(), string(refusal.PlayerDuplicate)) {
		t.Fatalf("second account of one document: %v", err)
	}
	if err := run("register", "-name", "Not Seen", "-birth", "1980-01-31", "-doc", "ZZ123456"); err == nil || !strings.Contains(err.Error(), string(refusal.PlayerNotVerified)) {
		t.Fatalf("registration without a clerk: %v", err)
	}
	id := "P000000000001"
	for _, c := range [][]string{
		{"card", id, "4000000000000001"},
		{"limits", id, "bets_day", "500"},
		{"limits", id, "loss_month", "none"},
		{"show", id},
		{"history", id},
		{"block", id, "asked", "by", "the", "player"},
		{"unblock", id},
		{"card-block", "4000000000000001", "lost"},
	} {
		if err := run(c...); err != nil {
			t.Fatalf("%v: %v", c, err)
		}
	}
	if err := run("limits", id, "bets_day", "lots"); err == nil {
		t.Fatal("a limit of \"lots\" accepted")
	}
	f := filepath.Join(dir, "register.txt")
	os.WriteFile(f, players.SignExclusions(priv, time.Now().Format("2006-01-02"), []string{"NOVÁK Jan|1980-01-31|"}), 0o600)
	if err := run("import-exclusions", f); err != nil {
		t.Fatal(err)
	}
	// A probable match (another given name beside the same one) waits for
	// staff; decided on the command line, in the account's log.
	if err := run("register", "-name", "Eva Jana Malá", "-birth", "1985-05-05", "-doc", "EM123456", "-verified-by", "clerk 7"); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(f, players.SignExclusions(priv, time.Now().Format("2006-01-02"), []string{"NOVÁK Jan|1980-01-31|", "MALÁ Eva Marie|1985-05-05|"}), 0o600)
	if err := run("import-exclusions", f); err != nil {
		t.Fatal(err)
	}
	if rv, err := reg.Reviews(t.Context(), false); err != nil || len(rv) != 1 {
		t.Fatalf("reviews: %+v %v", rv, err)
	}
	if err := run("reviews"); err != nil {
		t.Fatal(err)
	}
	if err := run("review", "1", "different", "manager Dana", "another", "person"); err != nil {
		t.Fatal(err)
	}
	if rv, err := reg.Reviews(t.Context(), true); err != nil || len(rv) != 1 || rv[0].DecidedBy != "manager Dana" || rv[0].Note != "another person" {
		t.Fatalf("decided: %+v %v", rv, err)
	}
	if err := run("review", "1", "same", "manager Dana"); err == nil {
		t.Fatal("a decided review decided again")
	}
	in, err := reg.Show(t.Context(), id)
	if err != nil || !in.Excluded || len(in.Cards) != 1 || !in.Cards[0].Blocked || in.Limits[0].Amount != 500 || in.Account.Blocked != "" {
		t.Fatalf("after the commands: %+v %v", in, err)
	}
}

// [players]: keys 0600 and long enough, a known market, the register's
// public key; the card scheme's verifier built from the master key.
func TestLoadPlayers(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	good := PlayersConfig{Market: "cz", HashKey: write("hash.key", make([]byte, 32), 0o600),
		CardMasterKey: write("cards.key", make([]byte, 32), 0o600), RegisterKey: base64.StdEncoding.EncodeToString(pub)}
	if p, err := loadPlayers(nil, nil); p != nil || err != nil {
		t.Fatalf("no section: %v %v", p, err)
	}
	if p, err := loadPlayers(&good, nil); p == nil || err != nil {
		t.Fatalf("good section: %v", err)
	}
	for name, c := range map[string]PlayersConfig{
		"market":   {Market: "xx", HashKey: good.HashKey, CardMasterKey: good.CardMasterKey, RegisterKey: good.RegisterKey},
		"mode":     {Market: "cz", HashKey: write("open.key", make([]byte, 32), 0o644), CardMasterKey: good.CardMasterKey, RegisterKey: good.RegisterKey},
		"short":    {Market: "cz", HashKey: write("short.key", make([]byte, 16), 0o600), CardMasterKey: good.CardMasterKey, RegisterKey: good.RegisterKey},
		"register": {Market: "cz", HashKey: good.HashKey, CardMasterKey: good.CardMasterKey, RegisterKey: "not base64"},
		"missing":  {Market: "cz", CardMasterKey: good.CardMasterKey, RegisterKey: good.RegisterKey},
		"master":   {Market: "cz", HashKey: good.HashKey, CardMasterKey: write("short-master.key", make([]byte, 16), 0o600), RegisterKey: good.RegisterKey},
	} {
		if _, err := loadPlayers(&c, nil); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
