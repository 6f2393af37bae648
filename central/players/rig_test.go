package players_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"sync"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/cardauth"
	"github.com/polaris-vlt/polaris/central/internal/testenv"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/players"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// cards is the card scheme (cardauth) for the tests' master key: a card's
// key derived from it, its answer a MAC over its number and the challenge.
type cards struct{ master []byte }

func (c cards) key(card string) []byte {
	k, err := cardauth.Derive(c.master, card)
	if err != nil {
		panic(err)
	}
	return k
}

// respond is the card's answer: a card holding key for number card.
func respond(key []byte, card string) func([]byte) ([]byte, error) {
	return func(ch []byte) ([]byte, error) { return cardauth.Respond(key, card, ch) }
}

// script is the central RNG for these tests: the values given, then n-1
// (for testenv's game: no win).
type script struct {
	mu   sync.Mutex
	next []int
}

func (s *script) Intn(n int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.next) > 0 {
		v := s.next[0]
		s.next = s.next[1:]
		return v
	}
	return n - 1
}

// win makes the next round of testenv's game a win of 3x its stake.
func (s *script) win() { s.mu.Lock(); s.next = append(s.next, 0, 0); s.mu.Unlock() }

type rig struct {
	t      *testing.T
	e      *testenv.Env
	reg    *players.Registry
	cards  cards
	regKey ed25519.PrivateKey
	src    *script
	rounds map[string]uint64 // each cabinet's next round number
}

func newRig(t *testing.T, market string) *rig {
	t.Helper()
	prof, err := players.ProfileFor(market)
	if err != nil {
		t.Fatal(err)
	}
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	r := &rig{t: t, cards: cards{master: []byte("the operator master key of the tests")}, regKey: priv, src: &script{},
		rounds: map[string]uint64{}}
	r.e = testenv.Start(t, func(c *server.Config) {
		r.reg, err = players.New(players.Config{Profile: prof, HashKey: make([]byte, 32), Cards: cardAuth(t, r.cards.master), RegisterKey: pub, Now: c.Now})
		if err != nil {
			t.Fatal(err)
		}
		c.Players = r.reg
		c.NewSource = func() engine.Source { return r.src }
	})
	// The register in force, dated today (cz refuses logins without one).
	r.importRegister(r.e.Clock.Now().Format("2006-01-02"))
	return r
}

// cardAuth is the verifier polaris-central serves with.
func cardAuth(t *testing.T, master []byte) players.CardVerifier {
	v, err := players.CardAuth(master)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func (r *rig) ctx() context.Context {
	c, cancel := context.WithTimeout(context.Background(), poll.Scaled(20*time.Second))
	r.t.Cleanup(cancel)
	return c
}

func (r *rig) importRegister(date string, lines ...string) *players.ImportResult {
	r.t.Helper()
	res, err := r.reg.ImportExclusions(r.ctx(), players.SignExclusions(r.regKey, date, lines))
	if err != nil {
		r.t.Fatal(err)
	}
	return res
}

func amt(v int64) *int64 { return &v }

// player registers a person, issues card and records the limits (the
// kinds not in limits: refused).
func (r *rig) player(name, birth, doc, card string, limits map[string]int64) string {
	r.t.Helper()
	a, err := r.reg.Register(r.ctx(), players.Registration{Name: name, BirthDate: birth, DocumentNumber: doc, IdentityVerified: true, VerifiedBy: "clerk 7"})
	if err != nil {
		r.t.Fatal(err)
	}
	if err := r.reg.IssueCard(r.ctx(), a.ID, card); err != nil {
		r.t.Fatal(err)
	}
	for _, k := range players.Kinds {
		var v *int64
		if x, ok := limits[k]; ok {
			v = amt(x)
		}
		if _, err := r.reg.SetLimit(r.ctx(), a.ID, k, v); err != nil {
			r.t.Fatal(err)
		}
	}
	return a.ID
}

func (r *rig) cabinet(id string) *link.Client {
	c := r.e.Client(id, nil)
	if _, err := c.Hello(r.ctx()); err != nil {
		r.t.Fatal(err)
	}
	return c
}

func (r *rig) login(c *link.Client, card string) (*link.PlayerState, error) {
	return c.PlayerLogin(r.ctx(), card, respond(r.cards.key(card), card))
}

func (r *rig) mustLogin(c *link.Client, card string) *link.PlayerState {
	r.t.Helper()
	st, err := r.login(c, card)
	if err != nil {
		r.t.Fatalf("login %s at %s: %v", card, c.Cabinet(), err)
	}
	if !st.GetActive() {
		r.t.Fatalf("login %s: no active session: %v", card, st)
	}
	return st
}

// play asks the cabinet's next round at stake and settles it; a refusal
// leaves the number used (as the cabinet does after a refund).
func (r *rig) play(c *link.Client, stake engine.Money) error {
	r.rounds[c.Cabinet()]++
	n := r.rounds[c.Cabinet()]
	_, err := c.RequestOutcome(r.ctx(), n, testenv.GameID, testenv.TheGame.ModelID(), stake)
	if err != nil {
		return err
	}
	return c.CommitOutcome(r.ctx(), n)
}

func (r *rig) mustPlay(c *link.Client, stake engine.Money) {
	r.t.Helper()
	if err := r.play(c, stake); err != nil {
		r.t.Fatalf("round at %s, stake %d: %v", c.Cabinet(), stake, err)
	}
}

// refused checks that err is the central system's refusal with reason,
// and that it drew no round.
func (r *rig) refused(c *link.Client, err error, reason refusal.Reason) {
	r.t.Helper()
	if got := link.Refusal(err); got != reason {
		r.t.Fatalf("want refusal %s, got %v", reason, err)
	}
	if n := r.e.Count("rounds", "cabinet=? AND round=?", c.Cabinet(), int64(r.rounds[c.Cabinet()])); n != 0 {
		r.t.Fatalf("a refused round was drawn")
	}
}

func (r *rig) limit(st *link.PlayerState, kind string) (used, left int64) {
	for _, l := range st.GetLimits() {
		if l.GetKind() == kind {
			return l.GetUsed(), l.GetLeft()
		}
	}
	r.t.Fatalf("no limit %s in %v", kind, st)
	return 0, 0
}

// wait lets d pass while the cabinet shows the session (it asks for the
// state every minute, as a cabinet does).
func (r *rig) wait(c *link.Client, d time.Duration) {
	r.t.Helper()
	for ; d > 0; d -= time.Minute {
		r.e.Clock.Advance(min(d, time.Minute))
		if _, err := c.PlayerState(r.ctx()); err != nil {
			r.t.Fatal(err)
		}
	}
}
