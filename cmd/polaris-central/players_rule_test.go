package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/players"
)

// [players] max_play, break and break_warning replace the market's
// continuous-play rule (test rigs and the crash harness); a value that is
// no positive duration is refused at start.
func TestPlayersConfigContinuousPlayRule(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, "k")
	if err := os.WriteFile(key, make([]byte, 32), 0o600); err != nil {
		t.Fatal(err)
	}
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	c := PlayersConfig{Market: "cz", HashKey: key, CardMasterKey: key, RegisterKey: base64.StdEncoding.EncodeToString(pub)}
	p, err := loadPlayers(&c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.(*players.Registry).Profile(); got.MaxPlay != 120*time.Minute || got.Break != 15*time.Minute {
		t.Fatalf("cz without overrides: max play %v, break %v", got.MaxPlay, got.Break)
	}
	c.MaxPlay, c.Break, c.BreakWarning = "75s", "12s", "10s"
	if p, err = loadPlayers(&c, nil); err != nil {
		t.Fatal(err)
	}
	if got := p.(*players.Registry).Profile(); got.MaxPlay != 75*time.Second || got.Break != 12*time.Second || got.Warn != 10*time.Second || !got.CardRequired {
		t.Fatalf("overridden: %+v", got)
	}
	for _, bad := range []string{"0s", "-1m", "soon"} {
		c.Break = bad
		if _, err := loadPlayers(&c, nil); err == nil || !strings.Contains(err.Error(), "break") {
			t.Errorf("break %q: %v", bad, err)
		}
	}
}
