package link_test

import (
	"context"
	"fmt"
	"os"

	"github.com/polaris-vlt/polaris/central/embedded"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/draw"
	"github.com/polaris-vlt/polaris/engine/magicstars"
)

// A cabinet's round through the link: Hello (the central system checks the
// models the cabinet plays), RequestOutcome (the signed outcome, verified
// against the pinned key), Mirror (replayed on the cabinet), CommitOutcome
// (the round is settled). The central system here is the devkit's embedded
// one on loopback mutual TLS, drawing from a seeded source so the output
// is fixed; on a cabinet the client comes from link.Dial with the
// cabinet's certificate and the central signing key.
func Example() {
	dir, _ := os.MkdirTemp("", "link")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	g, _ := magicstars.New(magicstars.ModelData())
	central, err := embedded.Start(ctx, embedded.Options{DataDir: dir, Cabinet: "cab-1", Games: []engine.Game{g},
		NoJackpot: true, NewSource: func() engine.Source { return draw.NewSeeded(8, 0) }})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer central.Close()
	c := central.Client

	hello, err := c.Hello(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("cabinet", hello.Cabinet, "last round", hello.LastRound)

	stake := g.Stakes()[0]
	o, err := c.RequestOutcome(ctx, hello.LastRound+1, g.ID(), g.ModelID(), stake)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("round", o.Round, "stake", o.Stake, "pays", o.Result.Total, "mirrors:", o.Mirror() == nil)
	fmt.Println("committed:", c.CommitOutcome(ctx, o.Round) == nil)
	// Output:
	// cabinet cab-1 last round 0
	// round 1 stake 5 pays 16 mirrors: true
	// committed: true
}
