package cabinet

import (
	"strings"
	"testing"
)

// TestUnreadableResumeStateIsLogged: resume state that does not decode is
// not silently dropped: the power-up logs which key it was, and the
// cabinet comes up playable without it.
func TestUnreadableResumeStateIsLogged(t *testing.T) {
	r := newRig(t, "cz")
	r.idle()
	r.cab.Do(func() {
		if err := r.led.SetSoftwareState(stateTilts.name, []byte("{not json")); err != nil {
			t.Fatal(err)
		}
	})
	r.powerCut()
	r.start("cz")
	r.idle()
	for _, e := range r.led.Events(50) {
		if e.Kind == "resume_state_unreadable" && strings.HasPrefix(e.Text, "tilts: ") {
			return
		}
	}
	t.Fatalf("no resume_state_unreadable event for tilts in %+v", r.led.Events(10))
}
