package cabinet

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/market"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// The player's information pages and the speaker's settings: what the
// cabinet decides about them. What the pages say and what sounds play is
// the display's (display/render, display/sound), from the snapshot.

// infoState is the information pages while the player reads them.
type infoState struct {
	page int
}

// soundState is the technician's volume, read from the ledger's
// configuration once.
type soundState struct {
	loaded bool
	volume int // -1: the market's
	// test counts the sound test's presses; testCue is the last one's.
	test    uint64
	testCue string
}

// volumeKey is the ledger configuration key of the technician's volume.
const volumeKey = "sound.volume"

// infoAllowed: from idle only — no round, cash-out, menu, test mode or
// anything that blocks play except a missing link (reading the rules
// needs no central system).
func (c *Cabinet) infoAllowed() bool {
	b := c.blocked()
	return c.play.round == nil && c.cashOut.voucher == nil && c.test == nil && c.menus.menu == nil && (b == "" || b == "link_down" || b == "disabled")
}

// enterInfo opens the first page for the selected game.
func (c *Cabinet) enterInfo() {
	if !c.infoAllowed() {
		return
	}
	c.play.halt("info")
	c.info = &infoState{}
}

// infoPress: Bet+ and Bet− page, Info, Collect or Start close. Start does
// not start a game from the rules: the player sees the game first.
func (c *Cabinet) infoPress(b view.Button) {
	n := len(view.InfoPages(c.play.game))
	switch b {
	case view.BetPlus:
		c.info.page = (c.info.page + 1) % n
	case view.BetMinus:
		c.info.page = (c.info.page + n - 1) % n
	case view.InfoButton, view.Collect, view.Start:
		c.info = nil
	}
}

// infoView is the snapshot's Info.
func (c *Cabinet) infoView() *view.Info {
	if c.info == nil {
		return nil
	}
	stake := c.play.bets[c.play.game]
	mi := c.cfg.Market.Info
	if mi == nil {
		mi = &market.InfoDefault
	}
	v := &view.Info{Page: c.info.page, Game: c.play.game, Stake: stake, MaxWin: maxWin(c.play.game, stake),
		Helpline: mi.Helpline, MinAge: mi.MinAge, RTPNote: mi.RTPNote}
	v.RTP, v.RTPKnown = gameRTP(c.play.game, stake)
	return v
}

// infoLamps: the buttons that do something on the information pages.
func (c *Cabinet) infoLamps(l map[view.Button]view.Lamp) {
	for _, b := range []view.Button{view.BetPlus, view.BetMinus, view.Collect, view.Start} {
		l[b] = view.LampOn
	}
}

// maxWin is the most one round can pay at stake (engine.MaxWinner), 0
// when the game does not say.
func maxWin(g engine.GameID, stake engine.Money) engine.Money {
	eg, err := engine.Lookup(g)
	if err != nil {
		return 0
	}
	if m, ok := eg.(engine.MaxWinner); ok {
		if v, err := m.MaxWin(stake); err == nil {
			return v
		}
	}
	return 0
}

// soundView is the snapshot's Sound.
func (c *Cabinet) soundView() view.Sound {
	ms := c.cfg.Market.Sound
	if ms == nil {
		ms = &market.DefaultSound
	}
	if !c.sound.loaded {
		c.sound.loaded, c.sound.volume = true, -1
		if v, ok := c.led.Config(volumeKey); ok {
			if n, err := strconv.Atoi(v); err == nil && n >= 0 && n <= 100 {
				c.sound.volume = n
			}
		}
	}
	s := view.Sound{Volume: ms.Volume, AttractSilent: !ms.Attract}
	if c.sound.volume >= 0 {
		s.Volume = c.sound.volume
	}
	if c.test != nil {
		s.Muted, s.Test, s.TestSeq = true, c.sound.testCue, c.sound.test
	}
	return s
}

// soundTestCues: in test mode each button plays one sound (the sound
// test, check 28's device tests); the names are display/sound's cues.
var soundTestCues = map[view.Button]string{
	view.Start: "spin", view.Stop: "reel_stop", view.Collect: "win", view.Auto: "feature",
	view.Risk: "jackpot", view.BetPlus: "button", view.BetMinus: "door_alarm",
}

// soundTest plays the pressed button's sound in test mode.
func (c *Cabinet) soundTest(b view.Button) {
	if cue, ok := soundTestCues[b]; ok {
		c.sound.test++
		c.sound.testCue = cue
	}
}

// ErrVolumeRefused: the volume is set only with the technician's key on.
var ErrVolumeRefused = errors.New("cabinet: the volume is set with the technician key turned")

// SetVolume sets the speaker's volume (0..100) for the technician: only
// with the technician key turned; the change is journaled in the ledger's
// configuration (an event with the old and new value) and outlives power
// cuts. A refusal is logged and changes nothing.
func (c *Cabinet) SetVolume(level int) error {
	var err error
	c.Do(func() { err = c.setVolume(level) })
	return err
}

func (c *Cabinet) setVolume(level int) error {
	switch {
	case !c.cond.keys["technician"]:
		c.cfg.Hooks.Logf("cabinet: volume %d refused: technician key off", level)
		c.logEvent("refused", "technician", fmt.Sprintf("volume %d: technician key off", level), 0)
		return ErrVolumeRefused
	case level < 0 || level > 100:
		c.cfg.Hooks.Logf("cabinet: volume %d refused: out of 0..100", level)
		return fmt.Errorf("cabinet: volume %d out of 0..100", level)
	}
	if err := c.led.SetConfig(volumeKey, strconv.Itoa(level), "technician"); err != nil {
		c.ledgerFailed("the volume", err)
		return err
	}
	c.sound.loaded, c.sound.volume = true, level
	c.cfg.Hooks.Logf("cabinet: volume set to %d by the technician", level)
	return nil
}
