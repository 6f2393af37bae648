package main

import (
	"context"
	"fmt"

	"github.com/polaris-vlt/polaris/central/reports"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/firmware/devkit"
)

// mirrorCheck reports the central system's MIRROR_DIFFERS alarms for the
// cabinet: a Hello whose reported credit was not the mirror's. Every money
// movement is booked on both sides before either side acts on it (a
// voucher printing is reported net of its amount, ledger.CreditState), so
// no kill explains one: each is a discrepancy, reported once.
type mirrorCheck struct {
	dataDir, store, cabinet string
	seen                    map[int64]bool
}

func newMirrorCheck(dataDir, store, cabinet string) *mirrorCheck {
	return &mirrorCheck{dataDir: dataDir, store: store, cabinet: cabinet, seen: map[int64]bool{}}
}

// check returns one line per MIRROR_DIFFERS alarm not reported before.
func (mc *mirrorCheck) check() ([]string, error) {
	db, err := devkit.OpenStore(mc.dataDir, mc.store)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	alarms, err := reports.AlarmList(context.Background(), db, reports.AlarmFilter{Cabinet: mc.cabinet, Limit: 1 << 20})
	if err != nil {
		return nil, err
	}
	var bad []string
	for i := len(alarms) - 1; i >= 0; i-- { // oldest first
		a := alarms[i]
		if a.Reason != server.ReasonMirrorDiffers || mc.seen[a.ID] {
			continue
		}
		mc.seen[a.ID] = true
		bad = append(bad, fmt.Sprintf("central alarm %s: %s", a.Reason, a.Text))
	}
	return bad, nil
}
