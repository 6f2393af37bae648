package testenv

import (
	"database/sql"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/engine"
)

// Jackpots is a fake server.Jackpots: one pool for every hall, fed by every
// stake, hit when a draw of range HitOneIn is 0; a cabinet in Refuse is
// refused. It writes each contribution into the store's transaction, so a
// rolled-back round leaves no trace.
type Jackpots struct {
	HitOneIn int
	Refuse   map[string]bool

	mu        sync.Mutex
	pool      engine.Money
	changed   chan struct{}
	Commits   atomic.Int64
	Rollbacks atomic.Int64
	closed    bool
}

var _ server.Jackpots = (*Jackpots)(nil)

func (j *Jackpots) Setup(tx *sql.Tx) error {
	j.changed = make(chan struct{}, 1)
	_, err := tx.Exec(`CREATE TABLE IF NOT EXISTS fake_jackpot(cabinet TEXT, round INTEGER, stake INTEGER, hit INTEGER)`)
	return err
}

func (j *Jackpots) Admits(c server.Contribution) error {
	if j.Refuse[c.Cabinet] {
		return fmt.Errorf("cabinet %s feeds no pool", c.Cabinet)
	}
	return nil
}

func (j *Jackpots) Contribute(tx *sql.Tx, c server.Contribution, src engine.Source) (*server.JackpotHit, error) {
	if err := j.Admits(c); err != nil {
		return nil, err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.pool += c.Stake
	var hit *server.JackpotHit
	if src.Intn(j.HitOneIn) == 0 {
		hit = &server.JackpotHit{Pool: "fake", Name: "Fake Jackpot", Amount: j.pool}
		j.pool = 0
	}
	amount := int64(0)
	if hit != nil {
		amount = int64(hit.Amount)
	}
	if _, err := tx.Exec(`INSERT INTO fake_jackpot VALUES(?,?,?,?)`, c.Cabinet, int64(c.Round), int64(c.Stake), amount); err != nil {
		return nil, err
	}
	if !j.closed {
		select {
		case j.changed <- struct{}{}:
		default:
		}
	}
	return hit, nil
}

func (j *Jackpots) Values(hall string) []server.JackpotValue {
	j.mu.Lock()
	defer j.mu.Unlock()
	return []server.JackpotValue{{Pool: "fake", Name: "Fake Jackpot", Game: GameID, Amount: j.pool}}
}

func (j *Jackpots) Subscribe() (<-chan struct{}, func()) {
	return j.changed, func() {
		j.mu.Lock()
		defer j.mu.Unlock()
		if !j.closed {
			j.closed = true
			close(j.changed)
		}
	}
}

func (j *Jackpots) Committed()  { j.Commits.Add(1) }
func (j *Jackpots) RolledBack() { j.Rollbacks.Add(1) }
