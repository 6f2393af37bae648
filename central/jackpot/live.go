package jackpot

import (
	"context"
	"sync"
	"time"
)

// Board is what a jackpot screen shows: pool values and Wish Upon a Star's
// fixed amounts per stake.
type Board struct {
	At        time.Time
	Pools     []PoolValue
	Fixed     []FixedValues // euro cents
	CZKPerEUR int64         // hundredths, from the configuration; 0: show no EUR
}

// Live is the pools' current values in memory, for screens and the
// cabinets' jackpot stream, which must not query the store on every
// update. It learns values from the store (Load, after a commit) or from
// each game's Outcome (Apply). Subscribers get a coalesced signal per
// change and read the Board again.
type Live struct {
	j *Jackpot

	mu   sync.Mutex
	vals map[string]PoolValue
	at   time.Time
	subs map[chan struct{}]struct{}
}

// NewLive returns j's pools at their configured seeds, until Load or Apply.
func NewLive(j *Jackpot) *Live {
	l := &Live{j: j, vals: map[string]PoolValue{}, subs: map[chan struct{}]struct{}{}, at: j.now()}
	for _, id := range j.order {
		p := j.pools[id]
		l.vals[id] = PoolValue{ID: id, Name: p.Name, Scope: p.Scope, Halls: p.Halls, Value: Units(p.Seed * UnitsPerCrown)}
	}
	return l
}

// Load reads every pool from the store and signals if a value changed.
func (l *Live) Load(ctx context.Context, db Querier) error {
	vals, err := l.j.Values(ctx, db)
	if err != nil {
		return err
	}
	l.mu.Lock()
	changed := false
	for _, v := range vals {
		if old := l.vals[v.ID]; old.Value != v.Value || old.Games != v.Games || old.Hits != v.Hits {
			l.vals[v.ID] = v
			changed = true
		}
	}
	if changed {
		l.at = l.j.now()
		l.signal()
	}
	l.mu.Unlock()
	return nil
}

// Apply records a played game's effect (its pool's new value) and signals.
func (l *Live) Apply(out Outcome) {
	if out.Pool == "" || out.Replayed {
		return
	}
	l.mu.Lock()
	v := l.vals[out.Pool]
	v.Value = out.Value
	v.Games++
	if out.Hit {
		v.Hits++
	}
	l.vals[out.Pool] = v
	l.at = l.j.now()
	l.signal()
	l.mu.Unlock()
}

func (l *Live) signal() {
	for ch := range l.subs {
		select {
		case ch <- struct{}{}:
		default: // a signal is already pending: coalesced
		}
	}
}

// Board returns what a screen of hall shows: the pool that hall feeds, or
// with hall "" every pool; and the fixed amounts.
func (l *Live) Board(hall string) Board {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := Board{At: l.at, Fixed: WishStarFixed(nil), CZKPerEUR: l.j.cfg.CZKPerEUR}
	if hall != "" {
		if id, _, err := l.j.Route("", hall); err == nil {
			b.Pools = []PoolValue{l.vals[id]}
		}
		return b
	}
	for _, id := range l.j.order {
		b.Pools = append(b.Pools, l.vals[id])
	}
	return b
}

// Subscribe returns a channel that receives a signal after values change
// (several changes may give one signal) and a cancel function, which closes
// the channel.
func (l *Live) Subscribe() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	l.mu.Lock()
	l.subs[ch] = struct{}{}
	l.mu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			l.mu.Lock()
			delete(l.subs, ch)
			close(ch)
			l.mu.Unlock()
		})
	}
}
