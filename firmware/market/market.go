// Package market is the cabinet's former home of the market profiles. They
// are github.com/polaris-vlt/polaris/market now, one per market for the
// cabinet and the central system alike; these aliases keep the cabinet's
// imports building until they move there (same names), then the package
// goes. (Not marked Deprecated: staticcheck would fail make test on every
// import left.)
package market

import "github.com/polaris-vlt/polaris/market"

type (
	Profile   = market.Profile
	Game      = market.Game
	Limits    = market.Limits
	Timers    = market.Timers
	Sound     = market.Sound
	Info      = market.Info
	Attendant = market.Attendant
	Players   = market.Players
	Duration  = market.Duration
)

const (
	AttendantKey = market.AttendantKey
	AttendantPIN = market.AttendantPIN
	PINLen       = market.PINLen
)

var (
	DefaultSound = market.DefaultSound
	InfoDefault  = market.InfoDefault
)

func Names() []string                        { return market.Names() }
func Builtin(id string) (*Profile, error)    { return market.Builtin(id) }
func Load(name string) (*Profile, error)     { return market.Load(name) }
func Parse(data []byte) (*Profile, error)    { return market.Parse(data) }
func HashPIN(pin string, salt []byte) string { return market.HashPIN(pin, salt) }
