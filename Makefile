# Polaris — the README's commands. Each room adds its own targets in mk/*.mk;
# a fragment extends TEST_EXTRA with targets that `make test` must also run.
SHELL := /bin/bash
GO    ?= go
BIN   := bin
export CGO_ENABLED ?= 1

TEST_EXTRA :=
BINARIES   :=

.PHONY: all build test test-go deps-test bench fuzz-short clean
all: build

include $(sort $(wildcard mk/*.mk))

build:
	@mkdir -p $(BIN)
	$(GO) build -o $(BIN)/ ./cmd/...

# deps-test installs the Debian packages the tests need (listed in
# .ci/apt-packages), only those missing, and only where apt can run.
deps-test:
	@scripts/install-packages.sh $$(grep -v '^#' .ci/apt-packages)

test-go:
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 15m ./...

# make test installed every package the tests need, so a test that finds a
# program missing fails rather than skips (internal/hosttools).
test: export POLARIS_TOOLS_REQUIRED := 1
test: deps-test check-tools check-sleep check-readme check-static test-go $(TEST_EXTRA)

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf $(BIN)
