// Package market holds the market profiles — currency, games offered, stake
// ladders, limits, language, jurisdiction timers and the rules of registered
// play — as data files, one per market, and loads them refusing anything
// inconsistent with the engine's games. The cabinet (firmware) and the
// central system (central/players) read the same profile, so a market's
// rule is written once.
package market

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/polaris-vlt/polaris/engine"
	// A profile's games and stakes are checked against the registered
	// games: whoever reads a profile (the cabinet, the central system)
	// has them registered.
	_ "github.com/polaris-vlt/polaris/engine/games"
	"github.com/polaris-vlt/polaris/language"
	"github.com/polaris-vlt/polaris/money"
)

//go:embed profiles/*.toml
var builtin embed.FS

// Game is one game a market offers, with its stake ladder.
type Game struct {
	ID           engine.GameID  `toml:"id"`
	Stakes       []engine.Money `toml:"stakes"`
	DefaultStake engine.Money   `toml:"default_stake"`
}

// Limits of money handling, in minor units.
type Limits struct {
	// TicketOut: a cash-out above it is a cancel-credit handpay.
	TicketOut engine.Money `toml:"ticket_out"`
	// LargeWin: a round winning at least this locks up for a handpay.
	LargeWin engine.Money `toml:"large_win"`
	// HandpayToCredit lets the attendant reset a large-win handpay to the
	// credit meter instead of paying it by hand (check 26).
	HandpayToCredit bool `toml:"handpay_to_credit"`
	// Credit: notes and tickets are refused while credit is at or above it.
	Credit engine.Money `toml:"credit"`
	// Bills the acceptor may take.
	Bills []engine.Money `toml:"bills"`
}

// Timers of the jurisdiction, in milliseconds.
type Timers struct {
	// MinRoundMs is the shortest time from Start to the next Start.
	MinRoundMs int `toml:"min_round_ms"`
	// VoucherExpiryDays printed on a voucher.
	VoucherExpiryDays int `toml:"voucher_expiry_days"`
	// AcceptorOffDuringPlay disables notes while a round is running.
	AcceptorOffDuringPlay bool `toml:"acceptor_off_during_play"`
}

// Sound is the market's say over the speaker.
type Sound struct {
	// Volume 0..100 until the technician sets another (logged).
	Volume int `toml:"volume"`
	// Attract: sound may play while the cabinet attracts players (no
	// credit, idle); false keeps attract silent.
	Attract bool `toml:"attract"`
}

// DefaultSound is a profile's sound without a [sound] table.
var DefaultSound = Sound{Volume: 50, Attract: false}

// Profile is one market.
type Profile struct {
	ID       string `toml:"id"`
	Name     string `toml:"name"`
	Language string `toml:"language"` // one of language.All
	// Languages the player may switch the screen to (the game menu), the
	// market's Language first; empty: Language only, no switch.
	Languages []string       `toml:"languages"`
	Currency  money.Currency `toml:"currency"`
	Games     []Game         `toml:"games"`
	Limits    Limits         `toml:"limits"`
	Timers    Timers         `toml:"timers"`
	// Sound: DefaultSound when the profile has no [sound] table.
	Sound *Sound `toml:"sound"`
	// Info is what the player's information pages say that differs by
	// market; InfoDefault without an [info] table.
	Info *Info `toml:"info"`
	// AttendantID is how the attendant paying a handpay is identified:
	// AttendantKey (the default) or AttendantPIN; Attendants are the
	// staff and their hashed PINs (attendant.go).
	AttendantID string      `toml:"attendant_id"`
	Attendants  []Attendant `toml:"attendants"`
	// CardRequired: no game without a player logged in with a card (cz;
	// the central system refuses such a round too, PLAYER_NO_SESSION).
	CardRequired bool `toml:"card_required"`
	// Players are the rules of registered play the central system keeps
	// (central/players); nil in a hall's file without a [players] table,
	// which the cabinet does not need. Every built-in profile has one.
	Players *Players `toml:"players"`
}

// Info is the market's wording on the player's information pages.
type Info struct {
	// Helpline of the responsible-gaming page (telephone and who runs it).
	Helpline string `toml:"helpline"`
	// MinAge to play.
	MinAge int `toml:"min_age"`
	// RTPNote: show that the RTP is not the chance of the next game
	// (Austria, standards check 35).
	RTPNote bool `toml:"rtp_note"`
}

// InfoDefault is a profile's Info without an [info] table.
var InfoDefault = Info{MinAge: 18, RTPNote: true}

// Game returns the offered game with this id.
func (p *Profile) Game(id engine.GameID) (*Game, bool) {
	for i := range p.Games {
		if p.Games[i].ID == id {
			return &p.Games[i], true
		}
	}
	return nil, false
}

// Names lists the built-in profiles.
func Names() []string {
	ents, _ := builtin.ReadDir("profiles")
	var out []string
	for _, e := range ents {
		out = append(out, e.Name()[:len(e.Name())-len(".toml")])
	}
	return out
}

// Builtin loads a built-in profile by id ("at", "cz", "demo").
func Builtin(id string) (*Profile, error) {
	b, err := builtin.ReadFile("profiles/" + id + ".toml")
	if err != nil {
		return nil, fmt.Errorf("market: no built-in profile %q (have %v)", id, Names())
	}
	return Parse(b)
}

// Load is a built-in profile by id, or a profile file when name ends in
// ".toml".
func Load(name string) (*Profile, error) {
	if !strings.HasSuffix(name, ".toml") {
		return Builtin(name)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("market: profile: %w", err)
	}
	return Parse(data)
}

// Parse decodes and checks a profile. Unknown keys, games the engine does
// not know, stakes off a game's ladder and inconsistent limits are refused.
func Parse(data []byte) (*Profile, error) {
	var p Profile
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("market: %s", describe(err))
	}
	if p.Sound == nil {
		s := DefaultSound
		p.Sound = &s
	}
	if p.Info == nil {
		i := InfoDefault
		p.Info = &i
	}
	if err := p.check(); err != nil {
		return nil, fmt.Errorf("market %q: %w", p.ID, err)
	}
	return &p, nil
}

func (p *Profile) check() error {
	if p.ID == "" {
		return errors.New("id is missing")
	}
	if !language.Known(p.Language) {
		return fmt.Errorf("language %q is not one of %s", p.Language, strings.Join(language.All(), ", "))
	}
	if err := p.checkLanguages(); err != nil {
		return err
	}
	if len(p.Currency.Code) != 3 {
		return fmt.Errorf("currency code %q is not a 3-letter ISO code", p.Currency.Code)
	}
	if p.Currency.MinorUnits < 0 || p.Currency.MinorUnits > 3 {
		return fmt.Errorf("currency minor_units %d out of 0..3", p.Currency.MinorUnits)
	}
	if len(p.Games) == 0 {
		return errors.New("no games offered")
	}
	seen := map[engine.GameID]bool{}
	for _, g := range p.Games {
		if seen[g.ID] {
			return fmt.Errorf("game %q offered twice", g.ID)
		}
		seen[g.ID] = true
		eg, err := engine.Lookup(g.ID)
		if err != nil {
			return err
		}
		if len(g.Stakes) == 0 {
			return fmt.Errorf("game %q: no stakes", g.ID)
		}
		for i, s := range g.Stakes {
			if err := engine.CheckStake(eg, s); err != nil {
				return fmt.Errorf("game %q: %w", g.ID, err)
			}
			if i > 0 && s <= g.Stakes[i-1] {
				return fmt.Errorf("game %q: stakes must ascend (%d after %d)", g.ID, s, g.Stakes[i-1])
			}
		}
		if !slices.Contains(g.Stakes, g.DefaultStake) {
			return fmt.Errorf("game %q: default stake %d is not among its stakes %v", g.ID, g.DefaultStake, g.Stakes)
		}
	}
	l := p.Limits
	if l.TicketOut <= 0 || l.LargeWin <= 0 || l.Credit <= 0 {
		return fmt.Errorf("limits ticket_out, large_win and credit must be positive (%d, %d, %d)", l.TicketOut, l.LargeWin, l.Credit)
	}
	if len(l.Bills) == 0 {
		return errors.New("limits: no bills accepted")
	}
	for _, b := range l.Bills {
		if b <= 0 {
			return fmt.Errorf("limits: bill value %d is not positive", b)
		}
	}
	if p.Sound.Volume < 0 || p.Sound.Volume > 100 {
		return fmt.Errorf("sound: volume %d out of 0..100", p.Sound.Volume)
	}
	if p.Info.MinAge < 18 {
		return fmt.Errorf("info: min_age %d is below 18", p.Info.MinAge)
	}
	if err := p.checkAttendants(); err != nil {
		return err
	}
	if p.Timers.MinRoundMs < 0 || p.Timers.VoucherExpiryDays <= 0 {
		return fmt.Errorf("timers: min_round_ms %d must be ≥ 0 and voucher_expiry_days %d > 0", p.Timers.MinRoundMs, p.Timers.VoucherExpiryDays)
	}
	if p.Players != nil {
		if err := p.Players.check(); err != nil {
			return fmt.Errorf("players: %w", err)
		}
	}
	return nil
}

// describe names the line (and the key) a TOML error is about.
func describe(err error) string {
	var sm *toml.StrictMissingError
	if errors.As(err, &sm) && len(sm.Errors) > 0 {
		e := sm.Errors[0]
		row, _ := e.Position()
		return fmt.Sprintf("line %d: unknown key %q", row, strings.Join(e.Key(), "."))
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		return fmt.Sprintf("line %d column %d: %s", row, col, de.Error())
	}
	return err.Error()
}

// checkLanguages: the player's languages are known ones, each once, and
// include the market's; the market's comes first.
func (p *Profile) checkLanguages() error {
	if len(p.Languages) == 0 {
		return nil
	}
	seen := map[string]bool{}
	for _, l := range p.Languages {
		if !language.Known(l) {
			return fmt.Errorf("languages: %q is not one of %s", l, strings.Join(language.All(), ", "))
		}
		if seen[l] {
			return fmt.Errorf("languages: %q listed twice", l)
		}
		seen[l] = true
	}
	if !seen[p.Language] {
		return fmt.Errorf("languages %q lack the market's language %q", p.Languages, p.Language)
	}
	i := slices.Index(p.Languages, p.Language)
	p.Languages = append([]string{p.Language}, slices.Delete(slices.Clone(p.Languages), i, i+1)...)
	return nil
}

// PlayerLanguages are the languages the player may choose, the market's
// first; one (the market's) when the market allows no switch.
func (p *Profile) PlayerLanguages() []string {
	if len(p.Languages) == 0 {
		return []string{p.Language}
	}
	return p.Languages
}
