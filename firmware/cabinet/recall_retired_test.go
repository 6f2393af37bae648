package cabinet

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/polaris-vlt/polaris/central/embedded"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/wishstar"
	"github.com/polaris-vlt/polaris/firmware/ledger"
)

// Issue 17: a round played before the change to Wish Upon a Star's model 2
// is still recalled, verified and mirrored on model 1, which drew it; on
// the current model alone it "does not verify".
func TestRecallOfARetiredModelRound(t *testing.T) {
	ctx := context.Background()
	old, err := embedded.Start(ctx, embedded.Options{DataDir: filepath.Join(t.TempDir(), "old"), Cabinet: "cab-1",
		Games: []engine.Game{wishstar.V1}, NoJackpot: true})
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	o, err := old.Client.RequestOutcome(ctx, 1, engine.WishStar, wishstar.V1.ModelID(), 25)
	if err != nil {
		t.Fatal(err)
	}
	if o.ModelID == wishstar.Default.ModelID() {
		t.Fatal("the old central system drew on the current model")
	}
	r := newRig(t, "at", func(c *Config) { c.SigningKey = old.Server.PublicKey() })
	r.idle()
	r.insertNote(1000, 2)
	env, _ := json.Marshal(outcomeEnvelope{Body: o.Body, Signature: o.Signature})
	var problem string
	var steps []engine.Step
	r.cab.Do(func() {
		led := r.cab.led
		n := led.NextRound()
		if n != 1 {
			t.Errorf("next round %d, want 1", n)
			return
		}
		for _, err := range []error{
			led.Wager(ledger.Wager{Round: 1, Game: string(engine.WishStar), Denom: 1, Stake: 25}),
			led.Outcome(1, int64(o.Result.Total), env),
			led.Settle(1, ledger.Settlement{Credit: int64(o.Result.Total)}),
		} {
			if err != nil {
				t.Error(err)
				return
			}
		}
		recall := loadRecall(r.cab.led, r.cab.outcomes)
		if len(recall) == 0 {
			t.Error("no game in the recall")
			return
		}
		problem, steps = recall[0].problem, recall[0].steps
		// The current model alone refuses it.
		if _, err := r.cab.outcomes.stored(recall[0].round, wishstar.Default); err == nil {
			t.Error("the current model verified a model 1 round")
		}
	})
	if problem != "" {
		t.Fatalf("recall of a model 1 round: %s", problem)
	}
	if !reflect.DeepEqual(steps, o.Result.Steps) {
		t.Fatalf("recalled steps differ from the outcome's")
	}
}
