package jackpot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// Scope says which terminals feed a pool (MS-16).
type Scope string

const (
	ScopeSystem Scope = "system" // every terminal of the central system
	ScopeHall   Scope = "hall"   // the terminals of one hall (venue)
	ScopeGroup  Scope = "group"  // the terminals of a group of halls
)

// Limits that keep the integer arithmetic far from overflow and the
// configuration sane.
const (
	MaxRateBP    = 5000          // at most 50 % of a stake goes to a pool
	MaxMustHitBy = 1_000_000_000 // CZK; ×UnitsPerCrown stays < 2^63
	MaxStake     = 1_000_000     // CZK per game, far above MS-6's 1 000
)

// PoolConfig is one progressive pool. Amounts are whole CZK.
type PoolConfig struct {
	ID    string   `toml:"id" json:"id"`
	Name  string   `toml:"name" json:"name"`
	Scope Scope    `toml:"scope" json:"scope"`
	Halls []string `toml:"halls" json:"halls"` // hall: exactly one; group: two or more; system: none
	// Seed is the value the pool starts at and is reset to after a hit.
	Seed int64 `toml:"seed" json:"seed"`
	// MustHitBy is the ceiling: the pool is hit at the latest by the game
	// that takes it to this value (see README, "Hit model").
	MustHitBy int64 `toml:"must_hit_by" json:"must_hit_by"`
	// RateBP is the contribution in basis points of each paid stake
	// (100 = 1 %).
	RateBP int64 `toml:"rate_bp" json:"rate_bp"`
}

// HallConfig names a hall and the cabinets standing in it.
type HallConfig struct {
	ID       string   `toml:"id" json:"id"`
	Name     string   `toml:"name" json:"name"`
	Cabinets []string `toml:"cabinets" json:"cabinets"`
}

// Config is the jackpot configuration file.
type Config struct {
	// CZKPerEUR is the exchange rate the hall display shows EUR amounts
	// with, in hundredths (2500 = 25.00 CZK per EUR); 0 shows no EUR.
	CZKPerEUR int64        `toml:"czk_per_eur_centi" json:"czk_per_eur_centi"`
	Pools     []PoolConfig `toml:"pool" json:"pool"`
	Halls     []HallConfig `toml:"hall" json:"hall"`
}

// ConfigError refuses a configuration; Field names the offending entry.
type ConfigError struct {
	File    string
	Field   string // e.g. `pool[1] ("brno").must_hit_by`
	Problem string
	Err     error // the decoder's error, if any
}

func (e *ConfigError) Error() string {
	var b strings.Builder
	b.WriteString("jackpot config")
	if e.File != "" {
		b.WriteString(" " + e.File)
	}
	if e.Field != "" {
		b.WriteString(": " + e.Field)
	}
	b.WriteString(": " + e.Problem)
	return b.String()
}

func (e *ConfigError) Unwrap() error { return e.Err }

// LoadConfig reads a .toml or .json file and validates it.
func LoadConfig(path string) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, &ConfigError{File: path, Problem: "cannot read: " + err.Error(), Err: err}
	}
	var c *Config
	switch strings.ToLower(filepath.Ext(path)) {
	case ".toml":
		c, err = ParseTOML(b)
	case ".json":
		c, err = ParseJSON(b)
	default:
		return nil, &ConfigError{File: path, Problem: "unknown file type (want .toml or .json)"}
	}
	if err != nil {
		var ce *ConfigError
		if errors.As(err, &ce) {
			ce.File = path
		}
		return nil, err
	}
	return c, nil
}

// ParseTOML decodes and validates a TOML configuration; unknown keys are
// refused so that a misspelt key is not silently ignored.
func ParseTOML(b []byte) (*Config, error) {
	var c Config
	d := toml.NewDecoder(bytes.NewReader(b)).DisallowUnknownFields()
	if err := d.Decode(&c); err != nil {
		var sm *toml.StrictMissingError
		var de *toml.DecodeError
		switch {
		case errors.As(err, &sm):
			keys := make([]string, 0, len(sm.Errors))
			for _, e := range sm.Errors {
				keys = append(keys, strings.Join(e.Key(), "."))
			}
			return nil, &ConfigError{Problem: "unknown key(s): " + strings.Join(keys, ", "), Err: err}
		case errors.As(err, &de):
			row, col := de.Position()
			return nil, &ConfigError{Problem: fmt.Sprintf("line %d column %d: %s", row, col, de.Error()), Err: err}
		}
		return nil, &ConfigError{Problem: err.Error(), Err: err}
	}
	return &c, c.Validate()
}

// ParseJSON decodes and validates a JSON configuration, refusing unknown
// fields.
func ParseJSON(b []byte) (*Config, error) {
	var c Config
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&c); err != nil {
		return nil, &ConfigError{Problem: err.Error(), Err: err}
	}
	if d.More() {
		return nil, &ConfigError{Problem: "trailing data after the JSON object"}
	}
	return &c, c.Validate()
}

func validID(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// Validate checks every rule of the file: ids, amounts, scopes, and that
// each hall feeds exactly one pool.
func (c *Config) Validate() error {
	bad := func(field, format string, a ...any) error {
		return &ConfigError{Field: field, Problem: fmt.Sprintf(format, a...)}
	}
	if c.CZKPerEUR < 0 {
		return bad("czk_per_eur_centi", "must not be negative, got %d", c.CZKPerEUR)
	}
	if len(c.Pools) == 0 {
		return bad("pool", "no pool configured")
	}
	halls := map[string]bool{}
	cabinets := map[string]string{}
	for i, h := range c.Halls {
		f := fmt.Sprintf("hall[%d] (%q)", i, h.ID)
		if !validID(h.ID) {
			return bad(f+".id", "must be 1..64 of [A-Za-z0-9._-]")
		}
		if halls[h.ID] {
			return bad(f+".id", "duplicate hall id")
		}
		halls[h.ID] = true
		for _, cab := range h.Cabinets {
			if cab == "" {
				return bad(f+".cabinets", "empty cabinet id")
			}
			if other, ok := cabinets[cab]; ok {
				return bad(f+".cabinets", "cabinet %q is already in hall %q", cab, other)
			}
			cabinets[cab] = h.ID
		}
	}
	pools := map[string]bool{}
	hallPool := map[string]string{}
	system := ""
	for i, p := range c.Pools {
		f := fmt.Sprintf("pool[%d] (%q)", i, p.ID)
		if !validID(p.ID) {
			return bad(f+".id", "must be 1..64 of [A-Za-z0-9._-]")
		}
		if pools[p.ID] {
			return bad(f+".id", "duplicate pool id")
		}
		pools[p.ID] = true
		if p.Seed < 0 {
			return bad(f+".seed", "must not be negative, got %d", p.Seed)
		}
		if p.MustHitBy > MaxMustHitBy {
			return bad(f+".must_hit_by", "must be at most %d CZK, got %d", MaxMustHitBy, p.MustHitBy)
		}
		if p.MustHitBy < p.Seed+1 {
			return bad(f+".must_hit_by", "must be at least seed + 1 CZK (%d), got %d", p.Seed+1, p.MustHitBy)
		}
		if p.RateBP < 1 || p.RateBP > MaxRateBP {
			return bad(f+".rate_bp", "must be 1..%d basis points, got %d", MaxRateBP, p.RateBP)
		}
		switch p.Scope {
		case ScopeSystem:
			if len(p.Halls) != 0 {
				return bad(f+".halls", "a system pool lists no halls (it serves every hall without a pool of its own)")
			}
			if system != "" {
				return bad(f+".scope", "a second system pool (the first is %q)", system)
			}
			system = p.ID
		case ScopeHall:
			if len(p.Halls) != 1 {
				return bad(f+".halls", "a hall pool lists exactly one hall, got %d", len(p.Halls))
			}
		case ScopeGroup:
			if len(p.Halls) < 2 {
				return bad(f+".halls", "a group pool lists at least two halls, got %d", len(p.Halls))
			}
		default:
			return bad(f+".scope", "must be system, hall or group, got %q", p.Scope)
		}
		for _, h := range p.Halls {
			if !halls[h] {
				return bad(f+".halls", "unknown hall %q (declare it in a [[hall]] table)", h)
			}
			if other, ok := hallPool[h]; ok {
				return bad(f+".halls", "hall %q already feeds pool %q", h, other)
			}
			hallPool[h] = p.ID
		}
	}
	if system == "" {
		for _, h := range c.Halls {
			if _, ok := hallPool[h.ID]; !ok {
				return bad(fmt.Sprintf("hall (%q)", h.ID), "feeds no pool and there is no system pool")
			}
		}
	}
	return nil
}
