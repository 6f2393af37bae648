// Package jpserver plugs the Magic Stars progressive jackpot
// (central/jackpot) into the reference central server: it implements
// server.Jackpots over a jackpot.Jackpot and keeps a jackpot.Live for the
// cabinets' stream and the hall display.
package jpserver

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"
	"time"

	"github.com/polaris-vlt/polaris/central/jackpot"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/engine"
)

// Adapter is a server.Jackpots.
type Adapter struct {
	j    *jackpot.Jackpot
	live *jackpot.Live

	// hooked is set once the server reports commits (Committed): from then
	// on values are published from the store after each commit, never from
	// a transaction that might still roll back.
	hooked atomic.Bool
	kick   chan *sql.DB
	once   sync.Once
}

var _ server.Jackpots = (*Adapter)(nil)

// New returns an adapter for j.
func New(j *jackpot.Jackpot) *Adapter {
	return &Adapter{j: j, live: jackpot.NewLive(j), kick: make(chan *sql.DB, 1)}
}

// Jackpot returns the engine behind a.
func (a *Adapter) Jackpot() *jackpot.Jackpot { return a.j }

// Live returns the in-memory values (a hall.Feed).
func (a *Adapter) Live() *jackpot.Live { return a.live }

// UsePostgres is the server's word that its store is PostgreSQL, with
// the channel its nodes listen on for pool changes.
func (a *Adapter) UsePostgres(channel string) { a.j.UsePostgres(channel) }

// Setup creates the tables, opens new pools and loads the values.
func (a *Adapter) Setup(tx *sql.Tx) error {
	ctx := context.Background()
	if err := a.j.Init(ctx, tx); err != nil {
		return err
	}
	return a.live.Load(ctx, tx)
}

// Admits checks the round's game and its route to a pool.
func (a *Adapter) Admits(c server.Contribution) error {
	return a.j.Admits(game(c))
}

func game(c server.Contribution) jackpot.Game {
	return jackpot.Game{Cabinet: c.Cabinet, Hall: c.Hall, Round: c.Round, Game: c.Game, Stake: c.Stake}
}

// Prefetch locks and reads the pools of a batch's rounds before their
// Contribute calls (jackpot.Prefetch).
func (a *Adapter) Prefetch(tx *sql.Tx, cs []server.Contribution) error {
	games := make([]jackpot.Game, len(cs))
	for i, c := range cs {
		games[i] = game(c)
	}
	return a.j.Prefetch(context.Background(), server.Pipelined(tx), games)
}

// Finish writes the pools the batch's rounds changed (jackpot.Finish).
func (a *Adapter) Finish(tx *sql.Tx) error {
	return a.j.Finish(context.Background(), server.Pipelined(tx))
}

// Contribute plays the round's jackpot part inside the round's transaction.
func (a *Adapter) Contribute(tx *sql.Tx, c server.Contribution, src engine.Source) (*server.JackpotHit, error) {
	// Pipelined: on PostgreSQL the game's writes ride with the round's.
	out, err := a.j.Play(context.Background(), server.Pipelined(tx), game(c), src)
	if err != nil {
		return nil, err
	}
	if !a.hooked.Load() {
		a.live.Apply(out)
	}
	if !out.Hit {
		return nil, nil
	}
	p, _ := a.j.Pool(out.Pool)
	name := p.Name
	if name == "" {
		name = p.ID
	}
	return &server.JackpotHit{Pool: out.Pool, Name: name, Amount: out.Paid}, nil
}

// Committed is the server's hook after a batch committed: the values are
// re-read from the store (in the background, coalesced).
func (a *Adapter) Committed(db *sql.DB) {
	a.hooked.Store(true)
	a.once.Do(func() { go a.loader() })
	select {
	case a.kick <- db:
	default:
	}
}

func (a *Adapter) loader() {
	prepared := false
	for db := range a.kick {
		if !prepared {
			// Play's statements, prepared once on the server's store: the
			// writer stops parsing them for every round.
			prepared = a.j.Prepare(context.Background(), db) == nil
		}
		_ = a.live.Load(context.Background(), db) // a failed read is retried at the next commit
		// At most one read per loadGap: under load the store commits
		// hundreds of batches a second, people read the values; a commit
		// meanwhile leaves its kick for the next read, so the newest
		// values always follow.
		time.Sleep(loadGap)
	}
}

// loadGap spaces the loader's reads of the store.
const loadGap = 50 * time.Millisecond

// Values is the progressive pool a cabinet of hall shows, in whole CZK. The
// fixed jackpots come from the games themselves.
func (a *Adapter) Values(hall string) []server.JackpotValue {
	b := a.live.Board(hall)
	out := make([]server.JackpotValue, 0, len(b.Pools))
	for _, p := range b.Pools {
		czk, _ := p.Value.Crowns()
		name := p.Name
		if name == "" {
			name = p.ID
		}
		out = append(out, server.JackpotValue{Pool: p.ID, Name: name, Game: engine.MagicStars, Amount: engine.Money(czk)})
	}
	return out
}

// Subscribe signals after values change; cancel closes the channel.
func (a *Adapter) Subscribe() (<-chan struct{}, func()) { return a.live.Subscribe() }

// Board is what a hall screen shows (hall.Feed, with Subscribe).
func (a *Adapter) Board(hall string) jackpot.Board { return a.live.Board(hall) }
