package app

import (
	"time"

	"github.com/polaris-vlt/polaris/clock"
	"github.com/polaris-vlt/polaris/clock/clocktest"
	"testing"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/firmware/cabinet"
)

// Hello's reconciliation reaches the cabinet's event log when the central
// credit mirror differs; an agreeing Hello is no event (and no jackpot values).
func TestHelloMirrorDifferenceIsACabinetEvent(t *testing.T) {
	e := noticeEvent(link.Notice{Hello: &link.HelloInfo{MirrorDiffers: true, MirrorCredit: 500}})
	if cc, ok := e.(cabinet.CentralCommand); !ok || cc.Command != "mirror_differs" || cc.Reason != "central credit mirror 500" {
		t.Fatalf("%#v", e)
	}
	if e := noticeEvent(link.Notice{Hello: &link.HelloInfo{}}); e != nil {
		t.Fatalf("an agreeing Hello: %#v", e)
	}
}

// Check 38's glue: Hello's offset and a TIME command step the cabinet's
// clock when the difference is above the tolerance, into one TimeChanged;
// a difference within it or a notice without a time is no event.
func TestCheck38NoticesStepTheClock(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	f := clocktest.New(t0)
	c := clock.NewDisciplined(f, time.Second)
	e := followCentralTime(c, link.Notice{Hello: &link.HelloInfo{Offset: 90 * time.Second}})
	if tc, ok := e.(cabinet.TimeChanged); !ok || !tc.Step.Old.Equal(t0) || !tc.Step.New.Equal(t0.Add(90*time.Second)) {
		t.Fatalf("Hello 90 s ahead: %#v", e)
	}
	if e := followCentralTime(c, link.Notice{Command: &link.Command{Kind: link.CmdTime, ServerTime: t0.Add(90*time.Second + 500*time.Millisecond)}}); e != nil {
		t.Fatalf("within the tolerance: %#v", e)
	}
	e = followCentralTime(c, link.Notice{Command: &link.Command{Kind: link.CmdTime, ServerTime: t0.Add(-time.Hour)}})
	if tc, ok := e.(cabinet.TimeChanged); !ok || tc.Step.By() != -time.Hour-90*time.Second {
		t.Fatalf("TIME an hour back: %#v", e)
	}
	if e := followCentralTime(c, link.Notice{Command: &link.Command{Kind: link.CmdDisable}}); e != nil {
		t.Fatalf("a notice without a time: %#v", e)
	}
}
