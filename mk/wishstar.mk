# Wish Upon a Star (engine/wishstar): the mirror fuzz target (short, in make
# test), a 40-million-round in-package simulation, and the tuning loop.
.PHONY: fuzz-wishstar sim-wishstar tune-wishstar

fuzz-wishstar:
	scripts/fuzz.sh ./engine/wishstar FuzzMirrorWishStar 10s

sim-wishstar:
	$(GO) test -count=1 -run TestSimulationAgreesWithExact -v ./engine/wishstar -bigsim

# tune-wishstar rebuilds model/wishstar.json from engine/wishstar/internal/tune.
tune-wishstar:
	$(GO) run ./engine/wishstar/internal/tune -o engine/wishstar/model/wishstar.json

TEST_EXTRA += fuzz-wishstar
