# central load test and hall display (jackpot helper).
#   make load-central CABINETS=1000 [DURATION=20s | ROUNDS=50] [RATE=500] [LOAD_FLAGS=-mirror]
# Starts polaris-central in-process on loopback with a generated PKI, runs
# CABINETS virtual cabinets through the real link client, prints
# "<x> outcomes/s, p50, p99" and audits the jackpot books; stops by itself.
CABINETS   ?= 100
DURATION   ?= 20s
ROUNDS     ?= 0
RATE       ?= 0
LOAD_FLAGS ?=

.PHONY: load-central hall-test
load-central:
	$(GO) run ./cmd/polaris-loadtest -cabinets $(CABINETS) $(if $(filter-out 0,$(ROUNDS)),-rounds $(ROUNDS),-duration $(DURATION)) -rate $(RATE) $(LOAD_FLAGS)

# The hall page in headless Chromium (also part of `go test ./...`); CI=true
# turns a missing chromium into a failure.
hall-test:
	CI=true $(GO) test -count=1 -run Chromium ./central/hall/
