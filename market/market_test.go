package market

import (
	"strings"
	"testing"

	"github.com/polaris-vlt/polaris/engine"
	_ "github.com/polaris-vlt/polaris/engine/games"
)

func TestBuiltinProfilesLoad(t *testing.T) {
	want := map[string]struct {
		cur   string
		games []engine.GameID
		lang  string
	}{
		"at":   {"EUR", []engine.GameID{engine.WishStar}, "de"},
		"cz":   {"CZK", []engine.GameID{engine.MagicStars}, "cs"},
		"demo": {"EUR", []engine.GameID{engine.WishStar, engine.MagicStars}, "en"},
	}
	if got := Names(); len(got) != len(want) {
		t.Fatalf("built-in profiles %v", got)
	}
	for id, w := range want {
		p, err := Builtin(id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if p.Currency.Code != w.cur || p.Language != w.lang || len(p.Games) != len(w.games) {
			t.Errorf("%s: %+v", id, p)
		}
		for i, g := range w.games {
			if p.Games[i].ID != g {
				t.Errorf("%s: game %d is %s, want %s", id, i, p.Games[i].ID, g)
			}
		}
	}
}

// MS-6: the Czech ladder is exactly the rule's, default 5 CZK; WS-12: the
// Austrian ladder runs from EUR 0.25 to 25.00.
func TestLaddersFollowTheRules(t *testing.T) {
	cz, _ := Builtin("cz")
	g, _ := cz.Game(engine.MagicStars)
	if got := g.Stakes; len(got) != 10 || got[0] != 5 || got[9] != 1000 || g.DefaultStake != 5 {
		t.Errorf("MS-6 ladder %v default %d", got, g.DefaultStake)
	}
	at, _ := Builtin("at")
	w, _ := at.Game(engine.WishStar)
	if w.Stakes[0] != 25 || w.Stakes[len(w.Stakes)-1] != 2500 {
		t.Errorf("WS-12 ladder %v", w.Stakes)
	}
}

func TestBrokenProfilesAreRefused(t *testing.T) {
	good, _ := builtin.ReadFile("profiles/cz.toml")
	cases := map[string]struct{ from, to, want string }{
		"unknown key":         {"[limits]", "[limits]\ncolour = 3", "colour"},
		"unknown game":        {`id = "magicstars"`, `id = "poker"`, "unknown game"},
		"stake off ladder":    {"stakes = [5, 10,", "stakes = [7, 10,", "not on the ladder"},
		"default not staked":  {"default_stake = 5 ", "default_stake = 6 ", "default stake"},
		"bad language":        {`language = "cs"`, `language = "fr"`, "language"},
		"no bills":            {"bills = [100, 200, 500, 1000, 2000, 5000]", "bills = []", "no bills"},
		"descending stakes":   {"stakes = [5, 10,", "stakes = [10, 5,", "ascend"},
		"not toml":            {"[limits]", "[limits", "line"},
		"unknown zone":        {`zone = "Europe/Prague"`, `zone = "Europe/Brno"`, "zone"},
		"no zone":             {`zone = "Europe/Prague"`, `zone = ""`, "zone"},
		"bad break credit":    {`break_credit = "keep"`, `break_credit = "bank"`, "break_credit"},
		"not a duration":      {`break = "15m"`, `break = "15"`, "line"},
		"negative wait":       {`loosen_wait = "168h"`, `loosen_wait = "-1h"`, "loosen_wait"},
		"play without break":  {`break = "15m"`, `break = "0s"`, "without a break"},
		"unknown players key": {"[players]", "[players]\nsmoking = false", "smoking"},
	}
	for name, tc := range cases {
		broken := strings.Replace(string(good), tc.from, tc.to, 1)
		if broken == string(good) {
			t.Fatalf("%s: the case does not change the profile", name)
		}
		_, err := Parse([]byte(broken))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", name, err, tc.want)
		}
	}
}

// Every built-in market states its rules of registered play: the central
// system reads them from here (central/players.ProfileFor).
func TestBuiltinProfilesHavePlayers(t *testing.T) {
	for _, id := range Names() {
		p, err := Builtin(id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if p.Players == nil {
			t.Errorf("%s: no [players] table", id)
			continue
		}
		if loc, err := p.Players.Location(); err != nil || loc.String() != p.Players.Zone {
			t.Errorf("%s: zone %q: %v", id, p.Players.Zone, err)
		}
	}
}
