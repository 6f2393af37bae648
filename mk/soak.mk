# The memory soak (issue 23), not part of make test:
#   make soak ROUNDS=100000 | HOURS=2 [EMBEDDED=1] [SOAK_SEED=n] [SOAK_OUT=dir] [SOAK_FLAGS=...]
# The headless cabinet in chaos play (-fast) against a separate
# polaris-central serve on loopback (EMBEDDED=1: the central system in the
# cabinet's process, the devkit), both started with their -debug-addr
# endpoint. Every 5 s it samples resident memory, Go heap in use,
# goroutines, open fds and SQLite connections of each process and the
# rounds played; writes SOAK_OUT/soak.csv, soak.png and heap profiles at the
# end of the warm-up and at the end; ends with a verdict line a series and
# exits 1 when one grows (thresholds: cmd/polaris-soak/README.md).
# ROUNDS is shared with load-central (default 0 there): 0 or empty means HOURS.
ROUNDS    ?=
HOURS     ?=
EMBEDDED  ?=
SOAK_SEED ?= 1
SOAK_OUT  ?= soak
SOAK_FLAGS ?=

.PHONY: soak
soak:
	@mkdir -p $(BIN)
	$(GO) build -o $(BIN)/ ./cmd/polaris-devkit ./cmd/polaris-central ./cmd/polaris-soak
	$(BIN)/polaris-soak -bin $(BIN) -out $(SOAK_OUT) -seed $(SOAK_SEED) \
		$(if $(filter-out 0,$(ROUNDS)),-rounds $(ROUNDS),-duration $(if $(HOURS),$(HOURS)h,10m)) \
		$(if $(EMBEDDED),-embedded) $(SOAK_FLAGS)
