package app

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/pki"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/outbox"
)

// LocalCentral starts a central system inside the process and returns the
// cabinet's link to it, the key it signs outcomes with and what stops it:
// the devkit's (central/embedded.Local). ob is the cabinet's outbox.
type LocalCentral func(ctx context.Context, dataDir, cabinetID string, ob link.Outbox) (*link.Client, ed25519.PublicKey, io.Closer, error)

// connectCentral gives the cabinet its link: to the operator's central
// system at o.Central with the credentials in o.PKIDir, or, when no address
// is set, to the central system o.LocalCentral starts in the process.
func (a *App) connectCentral(ctx context.Context) (*link.Client, ed25519.PublicKey, error) {
	o := a.Opt
	if o.Central == "" {
		if o.LocalCentral == nil {
			return nil, nil, errors.New("app: no central system: give its address (-central HOST:PORT); the devkit build (cmd/polaris-devkit) embeds one")
		}
		cl, key, c, err := o.LocalCentral(ctx, o.DataDir, o.CabinetID, outbox.Of(a.Ledger))
		if err != nil {
			return nil, nil, fmt.Errorf("app: central: %w", err)
		}
		a.Central = c
		return cl, key, nil
	}
	// Several central nodes "a:1,b:2": the link fails over between them
	// (each checked under its own host name).
	first, _, _ := strings.Cut(o.Central, ",")
	host, _, err := net.SplitHostPort(first)
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
	cl, err := link.Dial(link.Config{Addr: o.Central, TLS: tlsCfg, Cabinet: o.CabinetID, SigningKey: key, Games: engine.Games(), Outbox: outbox.Of(a.Ledger), CarryCommits: true})
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
