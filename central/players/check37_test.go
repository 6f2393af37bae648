package players_test

import (
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/proto/refusal"
)

// Standards check 37 (Austrian cooling-off), the central half: warned
// before, no game at the maximum continuous play time, then a cooling-off
// of the profile's length, the credit paid out (the market's rule, in the
// state for the cabinet).
func TestCheck37CoolingOff(t *testing.T) {
	r := newRig(t, "at")
	prof := r.reg.Profile()
	r.player("Anna Huber", "1979-04-04", "P1234567", "4000000000000001", nil)
	c := r.cabinet("cab-1")
	r.mustLogin(c, "4000000000000001")
	r.mustPlay(c, 10)
	r.wait(c, prof.MaxPlay-prof.Warn-time.Minute)
	st, err := c.PlayerState(r.ctx())
	if err != nil || st.GetBreakWarning() {
		t.Fatalf("warned too early: %v %v", st, err)
	}
	r.wait(c, time.Minute)
	st, err = c.PlayerState(r.ctx())
	if err != nil || !st.GetBreakWarning() || st.GetBreakCredit() != "payout" {
		t.Fatalf("no warning %s before the cooling-off: %v %v", prof.Warn, st, err)
	}
	r.mustPlay(c, 10)
	r.wait(c, prof.Warn)
	r.refused(c, r.play(c, 10), refusal.PlayerBreak)
	if prof.Break < 5*time.Minute {
		t.Fatalf("cooling-off of %s: at least 5 minutes", prof.Break)
	}
	r.wait(c, prof.Break-time.Minute)
	r.refused(c, r.play(c, 10), refusal.PlayerBreak)
	r.wait(c, time.Minute)
	r.mustPlay(c, 10)
}
