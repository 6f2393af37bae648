#!/usr/bin/env bash
# run-check: what a newcomer does after cloning, checked by a machine.
# `make run` (which installs its packages and builds) opens the devkit
# cabinet in a window on a virtual X server; the keyboard, through XTEST as
# a real keyboard, inserts a 5 EUR note (key 1) and starts a game (Space);
# the ledger, read from outside with polaris-ledger, must show the note
# credited and the stake wagered. Run it under xvfb-run (make run-check).
set -euo pipefail
cd "$(dirname "$0")/.."

data=$(mktemp -d)
log=$data/make-run.log
cleanup() {
  [ -n "${pid:-}" ] && kill -TERM -- "-$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
  rm -rf "$data"
}
trap cleanup EXIT
fail() { echo "run-check: FAILED: $*" >&2; tail -20 "$log" >&2; exit 1; }

go build -o bin/polaris-ledger ./cmd/polaris-ledger
start=$(date +%s)
setsid make run MARKET=demo DATA="$data" > "$log" 2>&1 &
pid=$!

# The window appears once make run has installed, built and started.
win=$(timeout 900 xdotool search --sync --name '^Polaris — demo$' | head -1) || fail "no cabinet window"
echo "run-check: window up $(( $(date +%s) - start )) s after make run"
xdotool windowfocus --sync "$win"

meter() { # meter NAME: the cabinet's meter from the ledger's JSON dump
  bin/polaris-ledger dump -a "$data/demo/ledger-a" -b "$data/demo/ledger-b" -json 2>/dev/null |
    tr -d ' \n' | grep -o "\"$1\":[0-9]*" | head -1 | cut -d: -f2 || true
}
waitmeter() { # waitmeter NAME MIN KEY: press KEY until meter NAME >= MIN (30 s)
  local deadline=$(( $(date +%s) + 30 )) v
  v=$(meter "$1"); v=${v:-0}
  while [ "$v" -lt "$2" ]; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "$1 is $v, not $2 or more"
    xdotool keydown "$3"; sleep 0.15; xdotool keyup "$3"; sleep 0.5
    v=$(meter "$1"); v=${v:-0}
  done
}
waitmeter bills_in_value 500 1     # the acceptor may still be enabling: press again
waitmeter coin_in 1 space
echo "run-check: note credited ($(meter bills_in_value) cents in), a game played ($(meter coin_in) cents wagered)"
kill -TERM -- "-$pid"
wait "$pid" 2>/dev/null || true
pid=
echo "run-check: passed"
