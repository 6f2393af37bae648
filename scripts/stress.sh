#!/usr/bin/env bash
# stress.sh (make test-stress): the tests that live on real time — ptys,
# sockets, processes, PostgreSQL, Xvfb, Chromium, pcscd — run again and
# again while stress-ng keeps every core busy, so a test that races its own
# code fails here, not one CI run in twenty. Not in make test: it takes the
# better part of an hour.
#   STRESS_NAMED  -count for the tests that failed a loaded CI (default 200)
#   STRESS_COUNT  -count for every time-sensitive package (default 3)
#   STRESS_CPU    stress-ng CPU workers (default: two per core)
#   STRESS_PKGS   the packages (default: all but the pure ones below)
#   STRESS_LOG    the whole output (default: a new file in /tmp)
# Deadlines are stretched by POLARIS_TEST_TIMEOUT_FACTOR (default here 1:
# the tests must hold at the deadlines make test uses).
# Prints one line per failed run and a summary; exits 1 on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/install-packages.sh stress-ng || exit 1
named=${STRESS_NAMED:-200}
count=${STRESS_COUNT:-3}
cpu=${STRESS_CPU:-$(( 2 * $(nproc) ))}
log=${STRESS_LOG:-$(mktemp /tmp/polaris-stress.XXXXXX.log)}
export POLARIS_TOOLS_REQUIRED=1 POLARIS_TEST_TIMEOUT_FACTOR=${POLARIS_TEST_TIMEOUT_FACTOR:-1}
# The pure packages: maths, vocabularies, codecs of data at rest and the
# tree checks; nothing in them waits on a clock, a device or a process.
pure='/(engine|money|deck|clock|cardauth|scripts|display/art|display/i18n|central/proto|market|firmware/market|firmware/view|firmware/checklist|internal/poll|internal/hosttools|drivers/printer/document)(/|$)'
pkgs=${STRESS_PKGS:-$(go list ./... | grep -Ev "$pure" | tr '\n' ' ')}

stress-ng --cpu "$cpu" --timeout 0 --quiet &
burner=$!
trap 'kill $burner 2>/dev/null; wait $burner 2>/dev/null' EXIT INT TERM

start=$(date +%s)
fails=0
run() { # label, then the command; a failed run's FAIL lines go to stdout
  local t0 rc step
  t0=$(date +%s)
  step=$(mktemp)
  echo "== $1" | tee -a "$log"
  shift
  "$@" >"$step" 2>&1; rc=$?
  cat "$step" >>"$log"
  if [ $rc -ne 0 ]; then
    fails=$((fails + 1))
    echo "   FAILED (rc $rc) in $(( $(date +%s) - t0 )) s:"
    grep -E -e '^(--- FAIL|FAIL|panic:)' "$step" | sort | uniq -c | tail -20
  else
    echo "   ok in $(( $(date +%s) - t0 )) s"
  fi
  rm -f "$step"
}
echo "stress: $cpu stress-ng workers on $(nproc) cores; log $log"
run "TestLinkStats x$named" go test -count="$named" -run '^TestLinkStats$' ./central/server/
run "TestFormFeedAndClearErrors, TestPowerCycleRedownloads x$named" \
  go test -count="$named" -run '^(TestFormFeedAndClearErrors|TestPowerCycleRedownloads)$' ./drivers/printer/tcl/
run "id003 TestRejects x$named" go test -count="$named" -run '^TestRejects$' ./drivers/id003/
# shellcheck disable=SC2086 # a list of packages
run "every time-sensitive package x$count" go test -count="$count" -timeout 60m $pkgs
# One process can open one audio context: the display tests run $count
# times as $count processes, not with -count.
for i in $(seq "$count"); do
  run "the display under Xvfb, run $i of $count" make --no-print-directory display-test
done
echo "stress: $fails failed step(s) in $(( $(date +%s) - start )) s at load $(cut -d' ' -f1-3 /proc/loadavg); log $log"
[ $fails -eq 0 ]
