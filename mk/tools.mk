# The programs the repository runs and the packages that ship them (.ci/tools).
#   make check-tools   every program run is listed and installed by the repository (in make test)
#   make check-sleep   no test sleeps outside a polling loop unless marked // sleep-ok: why (in make test)
#   make check-readme  READMEs state the contract: no run logs, loads, clock times or history (in make test)
#   make check-static  staticcheck, the version go.mod pins, on every package and its tests (in make test)
#   make fresh-check   .ci/run in a new Debian 12 root, as on a new machine (root; not in CI)
.PHONY: check-tools check-sleep check-readme check-static fresh-check
check-tools:
	$(GO) run ./scripts/checktools

check-sleep:
	$(GO) run ./scripts/checksleep

check-readme:
	$(GO) run ./scripts/checkreadme

# Both builds, their findings merged: the display's files are behind the
# display tag, and what only they use is not unused in the other build.
check-static:
	printf 'default:\ndisplay: -tags=display\n' | $(GO) tool staticcheck -matrix ./...

fresh-check:
	scripts/fresh-check.sh

# test-stress: the time-sensitive tests again and again under a CPU burner
# (scripts/stress.sh: the three that failed a loaded CI 200 times each,
# every time-sensitive package 3 times); about an hour, not in make test.
.PHONY: test-stress
test-stress:
	scripts/stress.sh
