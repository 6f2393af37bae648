package players_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/players"
	"github.com/polaris-vlt/polaris/market"
)

// The central system and the cabinet read one profile per market: what
// both decide on (who must play with a card, the minimum age) is the same
// value on both sides, for every market there is.
func TestCentralAndCabinetReadOneProfile(t *testing.T) {
	if len(market.Names()) == 0 {
		t.Fatal("no market profiles")
	}
	for _, id := range market.Names() {
		central, err := players.ProfileFor(id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		cab, err := market.Builtin(id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if central.Market != cab.ID || central.CardRequired != cab.CardRequired || central.MinAge != cab.Info.MinAge {
			t.Errorf("%s: central (market %q, card %v, age %d) and cabinet (market %q, card %v, age %d) differ",
				id, central.Market, central.CardRequired, central.MinAge, cab.ID, cab.CardRequired, cab.Info.MinAge)
		}
		if cab.Players == nil || central.Location.String() != cab.Players.Zone {
			t.Errorf("%s: central zone %s, profile %+v", id, central.Location, cab.Players)
		}
	}
}

// The rules as central/players defined them in Go before they moved into
// the market profiles: the move changed no value.
func TestProfilesKeptTheirValues(t *testing.T) {
	const week = 7 * 24 * time.Hour
	want := map[string]players.Profile{
		"cz": {Market: "cz", CardRequired: true, LimitsRequired: true, MaxPlay: 120 * time.Minute, Break: 15 * time.Minute,
			Warn: 5 * time.Minute, BreakCredit: "keep", LoosenWait: week, ClosedGrace: week,
			MinAge: 18, ExclusionsMaxAge: 48 * time.Hour, ChallengeTTL: 30 * time.Second},
		"at": {Market: "at", CardRequired: true, MaxPlay: 120 * time.Minute, Break: 5 * time.Minute,
			Warn: 5 * time.Minute, BreakCredit: "payout", LoosenWait: week, ClosedGrace: week,
			MinAge: 18, ChallengeTTL: 30 * time.Second},
		"demo": {Market: "demo", LoosenWait: 24 * time.Hour, ClosedGrace: week, MinAge: 18, ChallengeTTL: 30 * time.Second},
	}
	zones := map[string]string{"cz": "Europe/Prague", "at": "Europe/Vienna", "demo": "UTC"}
	got := players.Profiles()
	if len(got) != len(want) {
		t.Errorf("%d profiles, want %d", len(got), len(want))
	}
	for id, w := range want {
		g := got[id]
		if g.Location == nil || g.Location.String() != zones[id] {
			t.Errorf("%s: zone %v, want %s", id, g.Location, zones[id])
		}
		g.Location = nil
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s:\n got %+v\nwant %+v", id, g, w)
		}
	}
	if _, err := players.ProfileFor("xx"); err == nil {
		t.Error("an unknown market has a profile")
	}
}
