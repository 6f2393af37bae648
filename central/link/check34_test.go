package link_test

// Check 34 (standards.md §2), its last part: the terminal's pay table is the
// central system's. Both run the same game package (engine/magicstars) on
// the same model file, named by its SHA-256: the cabinet offers its model id
// in Hello and in every outcome request, and the central system refuses any
// other (MODEL_MISMATCH). What the model file does not hold (the MS-14 pay
// table, in code, checked against the rules by engine/par
// TestCheck34PayTableIsMS14) is checked on every round: the cabinet replays
// the signed tape with its own game (Outcome.Mirror) and refuses a result
// that differs.

import (
	"bytes"
	"testing"

	"github.com/polaris-vlt/polaris/central/internal/testenv"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/magicstars"
)

func TestCheck34CabinetAndCentralRunTheSameModel(t *testing.T) {
	e := testenv.Start(t, func(c *server.Config) { c.Games = []engine.Game{magicstars.Default} })

	// A model file differing in one cell is another model id.
	data := magicstars.ModelData()
	i := bytes.Index(data, []byte(`"LEMON"`))
	other := append(append(append([]byte{}, data[:i]...), []byte(`"PLUM"`)...), data[i+len(`"LEMON"`):]...)
	changed, err := magicstars.New(other)
	if err != nil {
		t.Fatal(err)
	}
	if changed.ModelID() == magicstars.Default.ModelID() {
		t.Fatal("a changed model file has the same id")
	}
	bad := e.Client("cab-other", func(c *link.Config) { c.Games = []engine.Game{changed} })
	if _, err := bad.Hello(ctx(t)); link.Refusal(err) != refusal.ModelMismatch {
		t.Fatalf("hello with another model: %v", err)
	}
	if _, err := bad.RequestOutcome(ctx(t), 1, engine.MagicStars, changed.ModelID(), 5); link.Refusal(err) != refusal.ModelMismatch {
		t.Fatalf("outcome for another model: %v", err)
	}
	if e.Count("rounds", "") != 0 {
		t.Fatal("a round was drawn for another model")
	}

	// The same model: accepted, and each round mirrors.
	c := e.Client("cab-1", func(c *link.Config) { c.Games = []engine.Game{magicstars.Default} })
	info, err := c.Hello(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if info.Models[engine.MagicStars] != magicstars.Default.ModelID() {
		t.Fatalf("central models %+v lack %s", info.Models, magicstars.Default.ModelID())
	}
	var won *link.Outcome
	for n := uint64(1); n < 500 && won == nil; n++ {
		o, err := c.RequestOutcome(ctx(t), n, engine.MagicStars, magicstars.Default.ModelID(), 5)
		if err != nil {
			t.Fatal(err)
		}
		if err := o.Mirror(); err != nil {
			t.Fatalf("round %d does not mirror: %v", n, err)
		}
		if o.Result.Total > 0 {
			won = o
			break
		}
		if err := c.CommitOutcome(ctx(t), n); err != nil {
			t.Fatal(err)
		}
	}
	if won == nil {
		t.Fatal("no win in 499 rounds")
	}
	// A cabinet whose pay table differed would refuse the central system's
	// result: its replay pays otherwise.
	saved := magicstars.Pays
	defer func() { magicstars.Pays = saved }()
	for s := range magicstars.Pays {
		magicstars.Pays[s] *= 2
	}
	var mm error
	if mm = won.Mirror(); mm == nil {
		t.Fatal("a round mirrored with another pay table")
	}
	magicstars.Pays = saved
	if err := won.Mirror(); err != nil {
		t.Fatalf("restored pay table: %v", err)
	}
	t.Logf("another pay table: %v", mm)
}
