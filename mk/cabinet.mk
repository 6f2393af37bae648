# The cabinet (issue 6): crash harness and benchmarks.
N ?= 20

.PHONY: crash-cabinet crash-cabinet-ci crash-cabinet-pg crash-cabinet-cards bench-cabinet check15

# crash-cabinet: the headless devkit cabinet (polaris-devkit) in chaos play (notes, games, Risk,
# vouchers out and back in, doors, lockups) SIGKILLed N times at random
# instants; after each kill the ledger is reconciled with the central
# system's store and with the documents the emulators stacked and printed
# (their logs in the data directory's devices/ outlive the kills).
# Ends with "cabinet crash test: N kills, D discrepancies". CRASH_DATA keeps
# the data directory (ledger, central store, document logs) for a look
# afterwards; CRASH_SEED replays the kill instants and the chaos seeds;
# CRASH_FLAGS="-market firmware/devkit/testdata/handpays.toml" plays with
# handpay limits chaos play reaches.
crash-cabinet:
	@mkdir -p $(BIN)
	$(GO) build -o $(BIN)/polaris-devkit ./cmd/polaris-devkit
	$(GO) build -o $(BIN)/polaris-crash ./cmd/polaris-crash
	$(BIN)/polaris-crash -n $(N) -bin $(BIN)/polaris-devkit $(if $(CRASH_DATA),-data $(CRASH_DATA)) $(if $(CRASH_SEED),-seed $(CRASH_SEED)) $(CRASH_FLAGS)

# crash-cabinet-pg: the same against two polaris-central processes on a
# throwaway PostgreSQL cluster (internal/pgcluster: initdb and pg_ctl as the
# postgres user), the cabinet knowing both (-central a,b); one life in
# three SIGKILLs a node in its midst, mostly the one the cabinet uses and
# half of the time just after a round was drawn (the cabinet fails over
# mid-round), and starts it again after the cabinet's kill. The ledger is reconciled with
# the shared store. Lives are longer (CRASH_LIFE, default 8s) than on the
# embedded system: the link's TLS and a node's answer take their time at
# load 20. The summary counts the nodes killed and the rounds drawn.
CRASH_LIFE ?= 8s
crash-cabinet-pg:
	@mkdir -p $(BIN)
	$(GO) build -o $(BIN)/polaris-devkit ./cmd/polaris-devkit
	$(GO) build -o $(BIN)/polaris-central ./cmd/polaris-central
	$(GO) build -o $(BIN)/polaris-crash ./cmd/polaris-crash
	$(BIN)/polaris-crash -pg -n $(N) -max-life $(CRASH_LIFE) -bin $(BIN)/polaris-devkit -central-bin $(BIN)/polaris-central $(if $(CRASH_DATA),-data $(CRASH_DATA)) $(if $(CRASH_SEED),-seed $(CRASH_SEED)) $(CRASH_FLAGS)

# crash-cabinet-cards: the cz market with player cards: a private pcscd
# with vsmartcard-vpcd's reader and the project's card emulator in it (the
# card stays in through the kills), two registered players at a
# polaris-central node (the second with a daily bet limit chaos play
# reaches), a continuous-play rule of 45 s play and a 10 s break so that
# breaks come within the run. Kills are aimed at the login, the break and
# a round just drawn; after each one the players' records (bets, wins, the
# limits' use, sessions) are reconciled with the rounds the ledger played
# under each card. Rounds are presented with their times (-fast=false) so
# that kills land mid-round. The summary counts the kills of each kind.
# CRASH_FLAGS=-pg puts the node(s) on PostgreSQL (two nodes).
crash-cabinet-cards:
	@mkdir -p $(BIN)
	$(GO) build -o $(BIN)/polaris-devkit ./cmd/polaris-devkit
	$(GO) build -o $(BIN)/polaris-central ./cmd/polaris-central
	$(GO) build -o $(BIN)/polaris-crash ./cmd/polaris-crash
	$(BIN)/polaris-crash -cards -fast=false -n $(N) -max-life $(CRASH_LIFE) -bin $(BIN)/polaris-devkit -central-bin $(BIN)/polaris-central $(if $(CRASH_DATA),-data $(CRASH_DATA)) $(if $(CRASH_SEED),-seed $(CRASH_SEED)) $(CRASH_FLAGS)

# make test's share: a dozen kills, paper reconciled, then eight with the
# low handpay limits (large wins, transfers to credit, cancel-credit
# handpays under kills; the demo's limits are out of chaos play's reach),
# then four against two central nodes on PostgreSQL (about a minute at load
# 22). The card mode is not here: a life aimed at the break waits up to a
# minute for it.
crash-cabinet-ci:
	$(MAKE) --no-print-directory crash-cabinet N=12
	$(MAKE) --no-print-directory crash-cabinet N=8 CRASH_FLAGS="-market firmware/devkit/testdata/handpays.toml"
	$(MAKE) --no-print-directory crash-cabinet-pg N=4

TEST_EXTRA += crash-cabinet-ci

bench-cabinet:
	$(GO) test -run '^$$' -bench . -benchmem ./firmware/cabinet/

# check15: standards check 15 in full, the meter invariant after every one
# of CHECK15_TXNS random transactions (make test runs 2 000).
CHECK15_TXNS ?= 10000
check15:
	POLARIS_CHECK15_TXNS=$(CHECK15_TXNS) $(GO) test -count=1 -timeout 60m -v \
		-run '^TestCheck15MeterInvariantRandomSession$$' ./firmware/cabinet/
