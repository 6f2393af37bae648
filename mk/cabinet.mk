# The cabinet (issue 6): crash harness and benchmarks.
N ?= 20

.PHONY: crash-cabinet crash-cabinet-ci bench-cabinet

# crash-cabinet: the headless cabinet in chaos play (notes, games, Risk,
# vouchers out and back in, doors, lockups) SIGKILLed N times at random
# instants; after each kill the ledger is reconciled with the central
# system's store. Ends with "cabinet crash test: N kills, D discrepancies".
crash-cabinet:
	@mkdir -p $(BIN)
	$(GO) build -o $(BIN)/polaris ./cmd/polaris
	$(GO) build -o $(BIN)/polaris-crash ./cmd/polaris-crash
	$(BIN)/polaris-crash -n $(N) -bin $(BIN)/polaris

crash-cabinet-ci:
	$(MAKE) --no-print-directory crash-cabinet N=12

TEST_EXTRA += crash-cabinet-ci

bench-cabinet:
	$(GO) test -run '^$$' -bench . -benchmem ./firmware/cabinet/
