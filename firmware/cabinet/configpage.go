package cabinet

import (
	"time"

	"github.com/polaris-vlt/polaris/clock"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// The configuration page's settings the technician changes at the deck:
// Start selects the volume, then the time, then nothing; while one is
// selected Bet+/Bet− change it instead of paging. The volume changes at
// once (journaled as a configuration change); the time is adjusted first
// (Bet± a minute, Auto/Risk an hour) and set with Collect, through the same
// step as the central system's (clock.Disciplined, a time_change event
// with the old and new time). Stop leaves the setting. The central
// system's time replaces the technician's at the next connection (check 38).

const menuConfig = "menu.config"

// configSetting is what Start has selected on the configuration page.
type configSetting uint8

const (
	configNone configSetting = iota
	configVolume
	configTime
)

// configEdit is the setting selected and, for the time, the change chosen.
type configEdit struct {
	setting configSetting
	adjust  time.Duration
}

// volumeStep is one press of Bet+ or Bet− on the volume.
const volumeStep = 5

// settableClock is a clock the technician can set: *clock.Disciplined.
type settableClock interface {
	Offset() time.Duration
	Follow(offset time.Duration) (clock.Step, bool)
}

// configPress handles a button on the configuration page; false: the
// button pages as on any other page.
func (c *Cabinet) configPress(b view.Button) bool {
	t := &c.tech.edit
	if b == view.Start {
		t.setting = (t.setting + 1) % (configTime + 1)
		if _, ok := c.cfg.Clock.(settableClock); t.setting == configTime && !ok {
			t.setting = configNone
		}
		t.adjust = 0
		c.showMenu()
		return true
	}
	switch t.setting {
	case configVolume:
		v := c.sound.view(c.test != nil).Volume
		switch b {
		case view.BetPlus:
			v = min(v+volumeStep, 100)
		case view.BetMinus:
			v = max(v-volumeStep, 0)
		case view.Stop:
			t.setting = configNone
		default:
			return true
		}
		if v != c.sound.view(c.test != nil).Volume {
			_ = c.setVolume(v) // a refusal is logged there
		}
	case configTime:
		switch b {
		case view.BetPlus:
			t.adjust += time.Minute
		case view.BetMinus:
			t.adjust -= time.Minute
		case view.Auto:
			t.adjust += time.Hour
		case view.Risk:
			t.adjust -= time.Hour
		case view.Collect:
			c.setTime(t.adjust)
			t.adjust, t.setting = 0, configNone
		case view.Stop:
			t.adjust, t.setting = 0, configNone
		default:
			return true
		}
	default:
		return false
	}
	c.showMenu()
	return true
}

// setTime steps the cabinet's time by d for the technician, logged like a
// step to the central time.
func (c *Cabinet) setTime(d time.Duration) {
	sc, ok := c.cfg.Clock.(settableClock)
	if !ok || d == 0 {
		return
	}
	if s, stepped := sc.Follow(sc.Offset() + d); stepped {
		c.logTimeStep("technician", s)
	} else {
		// Within the clock's tolerance: the clock does not step for it.
		c.logEvent("refused", "technician", "time change of "+d.String()+": within the clock's tolerance", 0)
	}
}

// hintSetting is the configuration page's footer while the volume is
// selected: Bet± change it, not the page; hintTime while the time is (Stop
// there cancels the change, Collect sets it).
const (
	hintSetting = "menu.hint.setting"
	hintTime    = "menu.hint.time"
)

// configLines are the configuration page's lines of the settings, and its
// footer.
func configLines(s pageSource) (ls []view.MenuLine, hint string) {
	ls = []view.MenuLine{view.Line("menu.config.time", view.Time(s.now))}
	switch s.tech.edit.setting {
	case configVolume:
		ls = append(ls, view.Line("menu.config.volume_edit", view.Count(int64(s.volume))), view.Line("menu.config.volume_help"))
		hint = hintSetting
	case configTime:
		ls = append(ls, view.Line("menu.config.time_edit", view.Time(s.now.Add(s.tech.edit.adjust))), view.Line("menu.config.time_help"))
		hint = hintTime
	default:
		if s.clockSettable {
			ls = append(ls, view.Line("menu.config.edit"))
		} else {
			ls = append(ls, view.Line("menu.config.edit_volume"))
		}
	}
	return append(ls, view.Line("menu.config.time_central")), hint
}
