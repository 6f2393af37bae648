# central load test and hall display (jackpot helper).
#   make load-central CABINETS=1000 [DURATION=20s | ROUNDS=50] [EVERY=2.5s | RATE=500] [PRIO=1] [LOAD_FLAGS=-mirror]
# Starts polaris-central in-process on loopback with a generated PKI, runs
# CABINETS virtual cabinets through the real link client, prints
# "<x> outcomes/s, p50, p99" and audits the jackpot books; stops by itself.
# Back to back by default (capacity; latency is then CABINETS / throughput);
# EVERY paces each cabinet to one round per EVERY, RATE paces them all
# together to RATE rounds/s (latency under a realistic load).
CABINETS   ?= 100
DURATION   ?= 20s
ROUNDS     ?= 0
RATE       ?= 0
EVERY      ?=
LOAD_FLAGS ?=

.PHONY: load-central load-central-pg failover-central-pg hall-test
LOAD_ARGS = -cabinets $(CABINETS) $(if $(filter-out 0,$(ROUNDS)),-rounds $(ROUNDS),-duration $(DURATION)) $(if $(EVERY),-every $(EVERY),-rate $(RATE)) $(LOAD_FLAGS)
# PRIO=1 (root): run in its own session with the session's CPU weight
# raised (autogroup nice -15) for the run, so that on a shared machine the
# load test gets the cores rather than a fair share among sessions.
PRIO       ?=

load-central:
ifeq ($(PRIO),1)
	$(GO) build -o bin/polaris-loadtest ./cmd/polaris-loadtest
	setsid -w sh -c 'echo -15 > /proc/self/autogroup && exec nice -n -15 bin/polaris-loadtest $(LOAD_ARGS)'
else
	$(GO) run ./cmd/polaris-loadtest $(LOAD_ARGS)
endif

# make load-central-pg NODES=3 CABINETS=3000 [EVERY=2.5s] [DURATION=…] [PRIO=1]
# The same load against NODES central nodes on one throwaway PostgreSQL
# (initdb in a temporary directory as the postgres user, random loopback
# port, removed after), beside the SQLite single node in the same run:
# two lines, each with its audit. Not part of make test.
NODES      ?= 3
PG_EVERY   ?= 2.5s
PG_ARGS = -cabinets $(CABINETS) $(if $(filter-out 0,$(ROUNDS)),-rounds $(ROUNDS),-duration $(DURATION)) -every $(if $(EVERY),$(EVERY),$(PG_EVERY)) -postgres auto -nodes $(NODES) -beside-sqlite $(LOAD_FLAGS)

load-central-pg:
	$(GO) build -o bin/polaris-loadtest ./cmd/polaris-loadtest
ifeq ($(PRIO),1)
	setsid -w sh -c 'echo -15 > /proc/self/autogroup && exec nice -n -15 bin/polaris-loadtest $(PG_ARGS)'
else
	bin/polaris-loadtest $(PG_ARGS)
endif

# make failover-central-pg [FAIL_NODES=2] [FAIL_CABINETS=300] [FAIL_AT=10s]
# The database failover under load: a throwaway primary with a synchronous
# streaming replica (pg_basebackup -R), NODES central nodes on the URL naming
# both; FAIL_AT into the run the primary is killed (immediate shutdown) and
# the replica promoted. Prints the longest time without an answered outcome;
# the audit checks every answered round is stored (RPO 0), committed once,
# and every pool exact. Not part of make test.
FAIL_AT      ?= 10s
FAIL_CABINETS ?= 300
FAIL_NODES   ?= 2
failover-central-pg:
	$(GO) build -o bin/polaris-loadtest ./cmd/polaris-loadtest
	bin/polaris-loadtest -cabinets $(FAIL_CABINETS) -duration 30s -every $(PG_EVERY) -postgres auto -nodes $(FAIL_NODES) -fail-db $(FAIL_AT) -retries 20 $(LOAD_FLAGS)

# The hall page in headless Chromium (also part of `go test ./...`); CI=true
# turns a missing chromium into a failure.
hall-test:
	CI=true $(GO) test -count=1 -run Chromium ./central/hall/
