# Engine math: PAR sheets, simulation, benchmarks, the mirror fuzz target.
.PHONY: par par-check simulate pool-sim bench-engine fuzz-engine

PAR_GAMES := wishstar magicstars
GAME ?= magicstars
N    ?= 1000000000
# SEED empty: polaris-math draws one (printed and kept in OUT), so every run
# is an independent sample that pool-sim may add to the others.
SEED ?=
OUT  ?=

# The central jackpot configuration the Magic Stars sheet's jackpot section
# is computed from (polaris-math reads it; the engine never imports central).
PAR_JACKPOT := central/jackpot/jackpot.example.toml

# par regenerates the committed PAR sheets (engine/par/<game>.txt, .json).
par:
	@for g in $(PAR_GAMES); do \
		$(GO) run ./cmd/polaris-math par $$g --jackpot $(PAR_JACKPOT) > engine/par/$$g.txt.new && mv engine/par/$$g.txt.new engine/par/$$g.txt || exit 1; \
		$(GO) run ./cmd/polaris-math par $$g --json --jackpot $(PAR_JACKPOT) > engine/par/$$g.json.new && mv engine/par/$$g.json.new engine/par/$$g.json || exit 1; \
		echo "engine/par/$$g.txt engine/par/$$g.json"; \
	done

# par-check fails when a committed sheet differs from a fresh one (the
# same check runs in go test as TestCommittedSheets, in cmd/polaris-math
# because it reads the central jackpot configuration).
par-check:
	$(GO) test -count=1 -run TestCommittedSheets ./cmd/polaris-math

# simulate is a full-size run on every core: make simulate GAME=wishstar
# N=1000000000 [SEED=7] [OUT=sim/ws-7.json]; OUT keeps the accumulators.
simulate:
	$(GO) run ./cmd/polaris-math simulate $(GAME) -n $(N) $(if $(SEED),-seed $(SEED)) $(if $(OUT),-out $(OUT))

# pool-sim adds up runs kept with OUT (one game, model and stake; distinct
# seeds): make pool-sim FILES="sim/ws-*.json" [OUT=pooled.json]; a pooled
# file pools again like a run.
pool-sim:
	$(GO) run ./cmd/polaris-math pool $(if $(OUT),-out $(OUT)) $(FILES)

bench-engine:
	$(GO) test -run '^$$' -bench . -benchmem ./engine/...

# A short fuzz of the tape and mirror, run by make test.
fuzz-engine:
	scripts/fuzz.sh ./engine/magicstars FuzzMirrorMagicStars 10s
	scripts/fuzz.sh ./engine FuzzTapeReader 5s

TEST_EXTRA += fuzz-engine
