package main

import (
	"context"
	"time"

	"github.com/polaris-vlt/polaris/firmware/health"
)

// superviseSystemd feeds systemd's watchdog (WatchdogSec= in the unit)
// only while check passes: a probe every window/4 beats one heart, and
// health's Feeder sends WATCHDOG=1 every interval/2 only while that heart
// beat within the last interval/2. A stuck store writer, a failed store
// (fail closed) or a stopped server therefore stops the pings, and systemd
// restarts the service. It returns false when no watchdog is asked for.
func superviseSystemd(ctx context.Context, check func(context.Context) error, logf func(string, ...any)) bool {
	iv := health.WatchdogInterval()
	if iv <= 0 {
		return false
	}
	m := health.New(time.Now)
	heart := m.Register("central store and server", iv/2)
	go probe(ctx, check, heart, iv/8, logf)
	return health.RunSystemd(ctx, m, logf)
}

// probe beats heart each time check passes, checking every `every`.
func probe(ctx context.Context, check func(context.Context) error, heart *health.Heart, every time.Duration, logf func(string, ...any)) {
	t := time.NewTicker(every)
	defer t.Stop()
	failing := false
	for {
		cctx, cancel := context.WithTimeout(ctx, 2*every)
		err := check(cctx)
		cancel()
		switch {
		case err == nil:
			heart.Beat()
			if failing {
				logf("health: healthy again")
			}
		case !failing && ctx.Err() == nil:
			logf("health: %v", err)
		}
		failing = err != nil
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
