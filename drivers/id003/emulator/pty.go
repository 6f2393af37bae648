package emulator

import (
	"context"

	"github.com/polaris-vlt/polaris/drivers/ptypair"
)

// StartOnPty runs an acceptor on a new pseudo-terminal (the devkit's
// "serial cable"): the host driver opens pair.HostPath. The acceptor stops
// and the pair is closed when ctx ends.
func StartOnPty(ctx context.Context, cfg Config) (*Acceptor, *ptypair.Pair, error) {
	pair, err := ptypair.New()
	if err != nil {
		return nil, nil, err
	}
	a := New(pair.Device, cfg)
	go func() {
		a.Run(ctx)
		pair.Close()
	}()
	return a, pair, nil
}
