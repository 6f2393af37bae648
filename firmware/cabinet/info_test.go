package cabinet

import (
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/par"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// The info button opens the player's information pages from idle only;
// Bet+ and Bet− page through the game's pages (wrapping), Collect closes;
// the page states the RTP at the chosen bet exactly as the PAR
// calculation has it, and the market's wording.
func TestInfoPagesFromIdleOnly(t *testing.T) {
	r := newRig(t, "at")
	r.idle()
	r.insertNote(2000, 2)
	r.press(view.BetPlus) // €0.50
	r.press(view.InfoButton)
	s := r.until("info", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeInfo })
	i := s.Info
	if i == nil || i.Page != 0 || i.Game != engine.WishStar || i.Stake != 50 {
		t.Fatalf("info %+v", i)
	}
	rtp, _, err := par.Theory(engine.WishStar, 50)
	if err != nil || !i.RTPKnown || i.RTP != rtp {
		t.Fatalf("RTP on the page %v (%v), PAR %v (%v)", i.RTP, i.RTPKnown, rtp, err)
	}
	if i.MaxWin <= 0 || !i.RTPNote || i.MinAge != 18 || !strings.Contains(i.Helpline, "+43") {
		t.Fatalf("market wording %+v", i)
	}
	pages := len(view.InfoPages(engine.WishStar))
	r.press(view.BetMinus)
	if s := r.until("last page", time.Millisecond, func(s *view.Snapshot) bool { return s.Info != nil && s.Info.Page == pages-1 }); s.Bet != 50 {
		t.Fatalf("paging changed the bet to %d", s.Bet)
	}
	r.press(view.BetPlus)
	r.until("first page again", time.Millisecond, func(s *view.Snapshot) bool { return s.Info != nil && s.Info.Page == 0 })
	credit := r.credit()
	r.press(view.Start) // closes, plays nothing
	s = r.until("closed", time.Millisecond, func(s *view.Snapshot) bool { return s.Info == nil })
	if s.Mode != view.ModeIdle || r.credit() != credit || r.meter(ledger.GamesPlayed) != 0 {
		t.Fatalf("Start on the info pages: mode %s credit %d games %d", s.Mode, r.credit(), r.meter(ledger.GamesPlayed))
	}
	// Not during a round: the press is ignored.
	r.cab.Do(func() {
		r.cab.press(view.Start)
		if r.cab.play.round == nil {
			t.Fatal("Start began no round")
		}
		r.cab.press(view.InfoButton)
		if r.cab.info != nil {
			t.Error("info opened during a round")
		}
	})
	r.settleRound(r.until("presented", 50*time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeIdle || s.RiskOffer }))
	// Not with the technician's key on.
	r.cab.Post(Key{Name: "technician", On: true})
	r.press(view.InfoButton)
	r.cab.Do(func() {
		if r.cab.info != nil {
			t.Error("info opened over the technician's menu")
		}
	})
}

// The volume: the market's until the technician sets it; set only with
// the technician key (a refusal changes nothing), journaled, kept across a
// power cut; test mode mutes everything but the sound test.
func TestVolumeByMarketAndTechnician(t *testing.T) {
	r := newRig(t, "cz")
	s := r.idle()
	if s.Sound.Volume != 60 || !s.Sound.AttractSilent || s.Sound.Muted {
		t.Fatalf("cz sound %+v, want the market's volume 60, attract silent", s.Sound)
	}
	if err := r.cab.SetVolume(30); err != ErrVolumeRefused {
		t.Fatalf("volume without the key: %v", err)
	}
	r.cab.Post(Key{Name: "technician", On: true})
	if err := r.cab.SetVolume(101); err == nil {
		t.Fatal("volume 101 accepted")
	}
	seq := r.lastEventSeq()
	if err := r.cab.SetVolume(30); err != nil {
		t.Fatal(err)
	}
	var logged bool
	for _, e := range r.eventsSince(seq) {
		logged = logged || e.Kind == ledger.EventConfigChange && strings.Contains(e.Text, "sound.volume: (unset) -> 30")
	}
	if !logged {
		t.Fatalf("the volume change is not in the event log: %+v", r.eventsSince(seq))
	}
	r.cab.Post(Key{Name: "technician", On: false})
	if s := r.idle(); s.Sound.Volume != 30 {
		t.Fatalf("volume %d after the technician set 30", s.Sound.Volume)
	}
	r.powerCut()
	r.start("cz")
	if s := r.idle(); s.Sound.Volume != 30 {
		t.Fatalf("volume %d after a power cut, want 30", s.Sound.Volume)
	}
	r.enterTestMode()
	r.press(view.BetMinus)
	s = r.until("sound test", time.Millisecond, func(s *view.Snapshot) bool { return s.Sound.TestSeq == 1 })
	if !s.Sound.Muted || s.Sound.Test != "door_alarm" {
		t.Fatalf("test mode sound %+v", s.Sound)
	}
}
