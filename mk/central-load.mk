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

.PHONY: load-central load-central-pg failover-central-pg failover-central-pg-full hall-test
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

# make load-central-pg NODES=3 CABINETS=3000 [EVERY=2.5s] [DURATION=…] [PRIO=1] [NODE_PROCS=0]
# The same load against NODES central nodes on one throwaway PostgreSQL
# (initdb in a temporary directory as the postgres user, random loopback
# port, removed after), beside the SQLite single node in the same run:
# two lines, each with its audit. Not part of make test.
NODES      ?= 3
PG_EVERY   ?= 2.5s
# NODE_PROCS=1 (default): every node, the SQLite one too, is its own
# bin/polaris-central serve process, the load generator (the cabinets)
# another; NODE_PROCS=0 runs the nodes inside the load generator. After each
# line: the CPU of each process (from /proc) over the run, and on
# PostgreSQL what its client backends did (pg_stat_activity and the batch
# lock in pg_locks, sampled every 50 ms).
NODE_PROCS ?= 1
PG_ARGS = -cabinets $(CABINETS) $(if $(filter-out 0,$(ROUNDS)),-rounds $(ROUNDS),-duration $(DURATION)) -every $(if $(EVERY),$(EVERY),$(PG_EVERY)) -postgres auto -nodes $(NODES) -beside-sqlite $(if $(filter 1,$(NODE_PROCS)),-node-bin bin/polaris-central) $(LOAD_FLAGS)

# PRIO=1 raises PostgreSQL's processes too (-raise-postgres): each backend
# is a session of its own, outside the load test's autogroup.
load-central-pg:
	$(GO) build -o bin/polaris-loadtest ./cmd/polaris-loadtest
	$(GO) build -o bin/polaris-central ./cmd/polaris-central
ifeq ($(PRIO),1)
	setsid -w sh -c 'echo -15 > /proc/self/autogroup && exec nice -n -15 bin/polaris-loadtest $(PG_ARGS) -raise-postgres'
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

# make failover-central-pg-full [CABINETS=1000] [NODES=3] [DURATION=60s] [PRIO=1]
#   [FAIL_NODE_AT=15s] [NODE_DOWN=5s] [FAIL_DB_AT=35s]
# Both failures in one run under load, the nodes real polaris-central
# processes (bin/polaris-central serve) on a throwaway primary with a
# synchronous replica: FAIL_NODE_AT into the run node 2 is SIGKILLed,
# NODE_DOWN later started again and probed until it answers; FAIL_DB_AT the
# primary is killed (immediate shutdown) and the replica promoted. The
# cabinets also send outbox event batches and issue, redeem and confirm
# vouchers. Prints the timeline, the nodes' own database lines, per phase
# the p50/p99 and the longest a cabinet waited for an answer, and the
# audit: every round, voucher and event stored once as answered, every
# pool exact. Not part of make test (its small version is
# TestFailoverUnderLoad in cmd/polaris-central). PRIO=1 raises the primary's
# and the replica's processes as load-central-pg does (backends a server
# forks later, after the failover, get nice -15 but an autogroup of their own
# at nice 0).
FULL_CABINETS ?= 1000
FULL_DURATION ?= 60s
FAIL_NODE_AT ?= 15s
NODE_DOWN    ?= 5s
FAIL_DB_AT   ?= 35s
# The run's directory (PKI, the nodes' configurations and logs), kept for
# reading the nodes' logs after; emptied at the start of each run.
FULL_DIR     ?= /tmp/polaris-failover-full
# CABINETS and DURATION given on the command line win over these defaults.
FULL_ARGS = -cabinets $(if $(filter command line,$(origin CABINETS)),$(CABINETS),$(FULL_CABINETS)) \
	-duration $(if $(filter command line,$(origin DURATION)),$(DURATION),$(FULL_DURATION)) \
	-every $(if $(EVERY),$(EVERY),$(PG_EVERY)) -postgres auto -nodes $(NODES) -node-bin bin/polaris-central \
	-fail-node $(FAIL_NODE_AT) -node-down $(NODE_DOWN) -fail-db $(FAIL_DB_AT) -retries 30 -mix -v -dir $(FULL_DIR) $(LOAD_FLAGS)
failover-central-pg-full:
	$(GO) build -o bin/polaris-loadtest ./cmd/polaris-loadtest
	$(GO) build -o bin/polaris-central ./cmd/polaris-central
	rm -rf $(FULL_DIR) && mkdir -m 700 -p $(FULL_DIR)
ifeq ($(PRIO),1)
	setsid -w sh -c 'echo -15 > /proc/self/autogroup && exec nice -n -15 bin/polaris-loadtest $(FULL_ARGS) -raise-postgres'
else
	bin/polaris-loadtest $(FULL_ARGS)
endif

# The hall page in headless Chromium (also part of `go test ./...`); CI=true
# turns a missing chromium into a failure.
hall-test:
	CI=true $(GO) test -count=1 -run Chromium ./central/hall/
