package engine_test

import (
	"fmt"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/draw"
	"github.com/polaris-vlt/polaris/engine/magicstars"
)

// The central system plays a round and sends it with its tape; the cabinet
// accepts it only if replaying the tape reproduces it field for field. A
// claim that pays one unit more is refused, naming the field; so is a tape
// with a draw missing. (A seeded source keeps the example's output fixed;
// the central system draws from draw.NewCrypto.)
func ExampleMirror() {
	g, _ := magicstars.New(magicstars.ModelData())
	stake := magicstars.Stakes()[0]
	round, tape, _ := engine.Play(g, draw.NewSeeded(8, 0), stake)

	if _, err := engine.Mirror(g, stake, tape, round); err == nil {
		fmt.Println("accepted: stake", round.Stake, "pays", round.Total, "from", len(tape), "draws")
	}

	inflated := *round
	inflated.Total++
	_, err := engine.Mirror(g, stake, tape, &inflated)
	fmt.Println(err)

	_, err = engine.Mirror(g, stake, tape[:len(tape)-1], round)
	fmt.Println(err)
	// Output:
	// accepted: stake 5 pays 16 from 1 draws
	// engine: outcome mismatch at Round.Total: claimed 17, replay gives 16
	// engine: tape too short: draw 0 (range 32768) missing
}
