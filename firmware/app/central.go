package app

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"net"
	"path/filepath"

	"github.com/polaris-vlt/polaris/central/embedded"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/pki"
	"github.com/polaris-vlt/polaris/engine"
)

// connectCentral gives the cabinet its link: to the operator's central
// system at o.Central with the credentials in o.PKIDir, or, when no address
// is set, to a central system embedded in the process (the devkit).
func (a *App) connectCentral(ctx context.Context) (*link.Client, ed25519.PublicKey, error) {
	o := a.Opt
	if o.Central == "" {
		c, err := embedded.Start(ctx, embedded.Options{DataDir: o.DataDir, Cabinet: o.CabinetID, Games: engine.Games(), Outbox: a.Ledger})
		if err != nil {
			return nil, nil, fmt.Errorf("app: central: %w", err)
		}
		a.Central = c
		return c.Client, c.Server.PublicKey(), nil
	}
	host, _, err := net.SplitHostPort(o.Central)
	if err != nil {
		return nil, nil, fmt.Errorf("app: central address %q: %w", o.Central, err)
	}
	tlsCfg, err := pki.CabinetTLSDir(o.PKIDir, o.CabinetID, host)
	if err != nil {
		return nil, nil, fmt.Errorf("app: central credentials: %w", err)
	}
	key, err := pki.LoadSigningPublicKey(filepath.Join(o.PKIDir, pki.SigningPub))
	if err != nil {
		return nil, nil, fmt.Errorf("app: central signing key: %w", err)
	}
	cl, err := link.Dial(link.Config{Addr: o.Central, TLS: tlsCfg, Cabinet: o.CabinetID, SigningKey: key, Games: engine.Games(), Outbox: a.Ledger, CarryCommits: true})
	if err != nil {
		return nil, nil, fmt.Errorf("app: central: %w", err)
	}
	a.remote = cl
	// The link drains the outbox for as long as the app lives, not only
	// while Run runs: Close cancels it.
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	a.remoteStop = func() { cancel(); <-a.remoteDone }
	a.remoteDone = make(chan struct{})
	go func() { defer close(a.remoteDone); cl.Run(rctx) }()
	return cl, key, nil
}
