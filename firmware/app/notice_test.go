package app

import (
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
