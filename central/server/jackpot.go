package server

import (
	"database/sql"

	"github.com/polaris-vlt/polaris/engine"
)

// Contribution is one new paid round offered to the jackpot engine.
type Contribution struct {
	Cabinet, Hall string
	Game          engine.GameID
	Round         uint64
	Stake         engine.Money
}

// JackpotHit is a mystery jackpot won by a round (MS-17); it is paid by an
// attendant, never credited (MS-18).
type JackpotHit struct {
	Pool, Name string
	Amount     engine.Money
}

// JackpotValue is one value a cabinet shows.
type JackpotValue struct {
	Pool, Name string
	Game       engine.GameID
	Amount     engine.Money
	Stake      engine.Money // fixed jackpots: the stake; 0 for a progressive
	Tier       string       // fixed jackpots: "mini", "minor", "major", "grand"
}

// Jackpots is the progressive jackpot engine (central/jackpot implements it).
type Jackpots interface {
	// Setup runs once at start inside a store write transaction.
	Setup(tx *sql.Tx) error
	// Admits says whether Contribute would take c, without the database:
	// its refusal refuses the round before anything of it is stored.
	// Called before Contribute, from the store-writer goroutine.
	Admits(c Contribution) error
	// Contribute is called exactly once per new paid round of any game, from
	// the store-writer goroutine, inside the transaction that records the
	// round, at that transaction's end on PostgreSQL, after every other
	// round of the batch was drawn (store_tails.go); src is the central
	// RNG. A hit goes into the signed body. Only a database failure may
	// fail it once Admits took c.
	Contribute(tx *sql.Tx, c Contribution, src engine.Source) (*JackpotHit, error)
	// Values are what a cabinet of hall shows; called concurrently.
	Values(hall string) []JackpotValue
	// Subscribe returns a channel that receives (coalesced) after values change.
	Subscribe() (changed <-chan struct{}, cancel func())
}

// jackpotPrefetcher is what a Jackpots may implement to read, in one go
// at a PostgreSQL batch's end, what the batch's Contribute calls will read
// (the pools, locked; cs in the order Contribute will be called), and to
// write what they changed in the shared rows once, after the last of them
// (Finish, before the commit).
type jackpotPrefetcher interface {
	Prefetch(tx *sql.Tx, cs []Contribution) error
	Finish(tx *sql.Tx) error
}

// prefetchJackpots is the store's beforeTails: the batch's rounds'
// contributions, handed to the jackpot engine's Prefetch.
func prefetchJackpots(p jackpotPrefetcher) func(tx *sql.Tx, payloads []any) error {
	return func(tx *sql.Tx, payloads []any) error {
		cs := make([]Contribution, 0, len(payloads))
		for _, v := range payloads {
			if c, ok := v.(Contribution); ok {
				cs = append(cs, c)
			}
		}
		return p.Prefetch(tx, cs)
	}
}

// fixedJackpots is what a game with fixed jackpot amounts per stake (Wish
// Upon a Star, WS-10) may implement so that the stream carries them.
type fixedJackpots interface {
	FixedJackpots(stake engine.Money) map[engine.Jackpot]engine.Money
}

var tierNames = map[engine.Jackpot]string{engine.Mini: "mini", engine.Minor: "minor", engine.Major: "major", engine.Grand: "grand"}

// riskCap returns the round cap Risk must respect for g and whether g has
// Risk at all: a game may say so with RiskCap(stake) (cap, ok); otherwise
// a game whose layout offers Risk (Magic Stars) has it, capped by its
// RoundCap or MS-7's 500 000 CZK.
func riskCap(g engine.Game, stake engine.Money) (engine.Money, bool) {
	if c, ok := g.(interface {
		RiskCap(engine.Money) (engine.Money, bool)
	}); ok {
		return c.RiskCap(stake)
	}
	// A game that states no layout (a test's game) offers no Risk.
	risk := false
	if lg, ok := g.(engine.Layouter); ok {
		risk = lg.Layout().Risk
	}
	switch c := g.(type) {
	case interface {
		RoundCap(engine.Money) engine.Money
	}:
		return c.RoundCap(stake), risk
	case interface{ RoundCap() engine.Money }:
		return c.RoundCap(), risk
	}
	if risk {
		return 500_000, true
	}
	return 0, false
}
