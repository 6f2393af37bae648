# The ledger (issue 3): the SIGKILL crash test of the critical memory.
#   make crash-ledger N=10000   # ends with "ledger crash test: <N> kills, <D> discrepancies"
#   make crash-ledger-ci        # the CI-sized run (part of make test)
LEDGER_KILLS    ?= $(if $(N),$(N),1000)
LEDGER_CI_KILLS ?= 300

.PHONY: crash-ledger crash-ledger-ci
crash-ledger:
	@mkdir -p $(BIN)
	@$(GO) build -o $(BIN)/polaris-ledger ./cmd/polaris-ledger
	@$(BIN)/polaris-ledger crash-test -n $(LEDGER_KILLS)

crash-ledger-ci:
	@$(MAKE) --no-print-directory crash-ledger N=$(LEDGER_CI_KILLS)

TEST_EXTRA += crash-ledger-ci
