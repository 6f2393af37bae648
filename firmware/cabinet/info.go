package cabinet

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/market"
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
	market *market.Profile // its sound settings: the volume unless the technician set one
	config interface {
		Config(key string) (string, bool)
	} // the ledger's configuration, where the technician's volume is kept
	loaded bool
	volume int // -1: the market's
	// test counts the sound test's presses; testCue is the last one's.
	test    uint64
	testCue string
}

// volumeKey is the ledger configuration key of the technician's volume.
const volumeKey = "sound.volume"

// enterInfo opens the first page for the selected game: from idle only —
// no round, cash-out, menu, test mode or anything that blocks play except
// a missing link (reading the rules needs no central system).
func (c *Cabinet) enterInfo() {
	b := c.blocked()
	if c.play.round != nil || c.cashOut.voucher != nil || c.test != nil || c.menus.menu != nil || b != "" && b != "link_down" && b != "disabled" {
		return
	}
	c.play.halt("info")
	c.info = &infoState{}
}

// infoPress: Bet+ and Bet− page, Info, Collect or Start close. Start does
// not start a game from the rules: the player sees the game first.
// press pages through the n pages; it reports whether the pages closed.
func (i *infoState) press(b view.Button, n int) (closed bool) {
	switch b {
	case view.BetPlus:
		i.page = (i.page + 1) % n
	case view.BetMinus:
		i.page = (i.page + n - 1) % n
	case view.InfoButton, view.Collect, view.Start:
		return true
	}
	return false
}

// view is the snapshot's Info: game's rules at stake, in market m.
func (i *infoState) view(m *market.Profile, game engine.GameID, stake engine.Money) *view.Info {
	if i == nil {
		return nil
	}
	mi := m.Info
	if mi == nil {
		mi = &market.InfoDefault
	}
	v := &view.Info{Page: i.page, Game: game, Stake: stake, MaxWin: maxWin(game, stake),
		Helpline: mi.Helpline, MinAge: mi.MinAge, RTPNote: mi.RTPNote}
	v.RTP, v.RTPKnown = gameRTP(game, stake)
	return v
}

// infoLamps: the buttons that do something on the information pages.
func infoLamps(l map[view.Button]view.Lamp) {
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

// view is the snapshot's Sound; testing: test mode, where the sound test
// plays and nothing else.
func (sd *soundState) view(testing bool) view.Sound {
	ms := sd.market.Sound
	if ms == nil {
		ms = &market.DefaultSound
	}
	if !sd.loaded {
		sd.loaded, sd.volume = true, -1
		if v, ok := sd.config.Config(volumeKey); ok {
			if n, err := strconv.Atoi(v); err == nil && n >= 0 && n <= 100 {
				sd.volume = n
			}
		}
	}
	s := view.Sound{Volume: ms.Volume, AttractSilent: !ms.Attract}
	if sd.volume >= 0 {
		s.Volume = sd.volume
	}
	if testing {
		s.Muted, s.Test, s.TestSeq = true, sd.testCue, sd.test
	}
	return s
}

// soundTestCues: in test mode each button plays one sound (the sound
// test, check 28's device tests); the names are display/sound's cues.
var soundTestCues = map[view.Button]string{
	view.Start: "spin", view.Stop: "reel_stop", view.Collect: "win", view.Auto: "feature",
	view.Risk: "jackpot", view.BetPlus: "button", view.BetMinus: "door_alarm",
}

// play plays the pressed button's sound in test mode.
func (sd *soundState) play(b view.Button) {
	if cue, ok := soundTestCues[b]; ok {
		sd.test++
		sd.testCue = cue
	}
}

// set is the technician's volume, journaled.
func (sd *soundState) set(level int) { sd.loaded, sd.volume = true, level }

// ErrVolumeRefused: the volume is set only with the technician's key on.
var ErrVolumeRefused = errors.New("cabinet: the volume is set with the technician key turned")

// SetVolume sets the speaker's volume (0..100) for the technician: only
// with the technician key turned; the change is journaled in the ledger's
// configuration (an event with the old and new value) and outlives power
// cuts. A refusal is logged and changes nothing.
func (c *Cabinet) SetVolume(level int) error {
	var err error
	c.loop.do(func() { err = c.setVolume(level) })
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
	c.sound.set(level)
	c.cfg.Hooks.Logf("cabinet: volume set to %d by the technician", level)
	return nil
}
