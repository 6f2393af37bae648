package devkit

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/polaris-vlt/polaris/board"
	"github.com/polaris-vlt/polaris/central/embedded"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/players"
	"github.com/polaris-vlt/polaris/drivers/cardreader/cardemu"
	"github.com/polaris-vlt/polaris/drivers/cardreader/readeremu"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/app"
	"github.com/polaris-vlt/polaris/market"
)

// DevCardMaster is the devkit's operator master key for player cards
// (drivers/cardreader/CARDS.md). A development key, public on purpose: an
// operator's is random, kept by its central system alone.
var DevCardMaster = []byte("polaris devkit card master key -- not a secret")

// devKey is a development key of the devkit's central system, derived
// from its purpose (public, like DevCardMaster).
func devKey(purpose string) []byte {
	k := sha256.Sum256([]byte("polaris devkit " + purpose))
	return k[:]
}

// DemoPlayer is a registered player of the devkit's central system, with
// an emulated card the devkit's keys insert.
type DemoPlayer struct {
	Card, Name, Birth, Doc string
	// Limits are the self-limits set; the other kinds are refused (every
	// kind is decided, as cz asks).
	Limits map[string]int64
}

// DemoPlayers are cards 1, 2 and 3. Card 3's daily bets are limited to
// three games at the demo market's default stake (1.00): a newcomer sees
// the limit stop play (and the next day, play again).
var DemoPlayers = []DemoPlayer{
	{Card: "4000000000000001", Name: "Jana Nováková", Birth: "1985-03-14", Doc: "DEV00001", Limits: map[string]int64{players.BetsDay: 50000}},
	{Card: "4000000000000002", Name: "Petr Svoboda", Birth: "1979-11-02", Doc: "DEV00002"},
	{Card: "4000000000000003", Name: "Eva Dvořáková", Birth: "1992-07-21", Doc: "DEV00003", Limits: map[string]int64{players.BetsDay: 300}},
}

// Cards are the devkit's player cards: its own pcscd with the vpcd
// virtual reader (readeremu) that the board's card reader uses, the
// emulated cards 1..3 in its slot, and the embedded central system with
// the DemoPlayers. Without pcscd the central system still has the players
// and the card keys say why they do nothing.
type Cards struct {
	rig  *readeremu.Rig
	slot *cardemu.Slot
	err  error // why there is no reader

	mu sync.Mutex   // one insertion or removal at a time
	in atomic.Int32 // the card in the slot, 0 none: read without waiting for a swap
}

// WithCards returns o with the player cards (call it before
// StartHeadless): the embedded central system keeps players for the
// market (its profile in central/players; a profile file's id picks it,
// an unknown one is demo's), the board's reader is the devkit's pcscd.
func WithCards(o app.Options) (app.Options, *Cards) {
	c := &Cards{}
	prof, err := players.ProfileFor(marketID(o.Market))
	if err != nil {
		prof, _ = players.ProfileFor("demo")
	}
	if o.LocalCentral == nil {
		o.LocalCentral = c.local(prof)
	}
	dir, err := filepath.Abs(filepath.Join(o.DataDir, "pcsc"))
	if err == nil {
		c.rig, err = readeremu.Start(dir, nil)
	}
	if err != nil {
		c.err = err
		return o, c
	}
	c.slot = c.rig.Slot(0)
	adjust := o.BoardOptions
	o.BoardOptions = func(bo *board.Options) {
		bo.CardReaderSocket = c.rig.Socket
		if adjust != nil {
			adjust(bo)
		}
	}
	return o, c
}

// marketID is the id of the market o.Market names (a built-in id or a
// profile file), "" when it cannot be read.
func marketID(name string) string {
	if p, err := market.Load(name); err == nil {
		return p.ID
	}
	return name
}

// local is the embedded central system with the players (app.LocalCentral).
func (c *Cards) local(prof players.Profile) app.LocalCentral {
	return func(ctx context.Context, dataDir, cabinetID string, ob link.Outbox) (*link.Client, ed25519.PublicKey, io.Closer, error) {
		verifier, err := players.CardAuth(DevCardMaster)
		if err != nil {
			return nil, nil, nil, err
		}
		regKey := ed25519.NewKeyFromSeed(devKey("exclusion register"))
		reg, err := players.New(players.Config{Profile: prof, HashKey: devKey("identity hash"), Cards: verifier,
			RegisterKey: regKey.Public().(ed25519.PublicKey)})
		if err != nil {
			return nil, nil, nil, err
		}
		cen, err := embedded.Start(ctx, embedded.Options{DataDir: dataDir, Cabinet: cabinetID, Games: engine.Games(), Outbox: ob, Players: reg})
		if err != nil {
			return nil, nil, nil, err
		}
		if err := seedPlayers(ctx, reg, regKey); err != nil {
			cen.Close()
			return nil, nil, nil, fmt.Errorf("devkit: demo players: %w", err)
		}
		return cen.Client, cen.Server.PublicKey(), cen, nil
	}
}

// seedPlayers registers the DemoPlayers not registered yet, and imports
// an empty register of excluded persons dated today (cz refuses logins
// without a fresh one), its serial the wall clock's seconds: a register
// must be later than the one in force, and a restart is.
func seedPlayers(ctx context.Context, reg *players.Registry, regKey ed25519.PrivateKey) error {
	now := time.Now()
	if _, err := reg.ImportExclusions(ctx, players.SignRegister(regKey, now.In(reg.Profile().Location).Format("2006-01-02"), uint64(now.Unix()), nil)); err != nil {
		return err
	}
	for _, p := range DemoPlayers {
		if have, err := reg.Search(ctx, p.Card, 1); err != nil {
			return err
		} else if len(have) > 0 {
			continue
		}
		a, err := reg.Register(ctx, players.Registration{Name: p.Name, BirthDate: p.Birth, DocumentNumber: p.Doc,
			IdentityVerified: true, VerifiedBy: "devkit"})
		if err != nil {
			return err
		}
		if err := reg.IssueCard(ctx, a.ID, p.Card); err != nil {
			return err
		}
		for _, k := range players.Kinds {
			var v *int64
			if x, ok := p.Limits[k]; ok {
				v = &x
			}
			if _, err := reg.SetLimit(ctx, a.ID, k, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// Insert puts demo card n (1..len(DemoPlayers)) in the reader; a card
// already in comes out first, long enough for the reader to see it go
// (cardemu.SwapGap), so Insert returns after about a second then.
func (c *Cards) Insert(n int) error {
	if n < 1 || n > len(DemoPlayers) {
		return fmt.Errorf("devkit: no card %d (1..%d)", n, len(DemoPlayers))
	}
	if c.slot == nil {
		return c.noReader()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	card := cardemu.PlayerCard(DevCardMaster, DemoPlayers[n-1].Card)
	var err error
	if c.in.Load() != 0 {
		c.in.Store(0)
		err = c.slot.Swap(card)
	} else {
		err = c.slot.Insert(card)
	}
	if err == nil {
		c.in.Store(int32(n))
	}
	return err
}

// Remove takes the card out of the reader (none in: nothing).
func (c *Cards) Remove() error {
	if c.slot == nil {
		return c.noReader()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.slot.Remove()
	c.in.Store(0)
	return nil
}

func (c *Cards) noReader() error {
	return fmt.Errorf("devkit: no card reader: %w", c.err)
}

// In is the card in the reader (0: none).
func (c *Cards) In() int { return int(c.in.Load()) }

// Err is why the devkit has no card reader (pcscd or vpcd missing), nil
// when it has one.
func (c *Cards) Err() error { return c.err }

// Close takes the card out and stops the devkit's pcscd.
func (c *Cards) Close() error {
	if c.rig == nil {
		return nil
	}
	c.slot.Remove()
	err := c.rig.Close()
	if errors.Is(err, os.ErrClosed) {
		err = nil
	}
	return err
}
