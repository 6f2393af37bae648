#!/usr/bin/env bash
# run-check: what a newcomer does after cloning, checked by a machine.
# `make run` (which installs its packages and builds) opens the devkit
# cabinet in a window on a virtual X server, its sound going to a PulseAudio
# server with a null sink that this script starts. The keyboard, through
# XTEST as a real keyboard: a 5 EUR note (key 1); the rules (I), which Start
# only closes (no game is wagered from the rules screen); a game (Space),
# whose sound is recorded from the sink's monitor and must not be silent;
# a cash-out (C), the ticket taken from the chute and inserted again (0);
# a player card in (F4) and out (K).
# The ledger, read from outside with polaris-ledger, must show each step.
# Run it on a virtual X server (make run-check: bin/xvfb, scripts/xvfb).
set -euo pipefail
cd "$(dirname "$0")/.."

data=$(mktemp -d)
log=$data/make-run.log
# Every process started here ends with the script, however it ends (a
# failure, Ctrl-C, SIGTERM): make run's process group (make, the devkit,
# which stops its pcscd) gets SIGTERM and up to 15 s, then SIGKILL; then
# whatever still names the data directory (the devkit's pcscd) is killed.
ingroup() { # ingroup PGID: a live (not zombie) process is in the group
  { cat /proc/[0-9]*/stat 2>/dev/null || true; } | awk -v g="$1" '{ sub(/^.*\) /, ""); if ($3 == g && $1 != "Z") n++ } END { exit !n }'
}
naming() { # naming DIR: the live processes whose command line names DIR
  local p cl
  for p in /proc/[0-9]*; do
    cl=$(tr '\0' ' ' 2>/dev/null < "$p/cmdline") || continue
    [[ $cl == *"$1"* ]] && [ "$(awk '{ sub(/^.*\) /, ""); print $1 }' "$p/stat" 2>/dev/null)" != Z ] && echo "${p#/proc/} $cl"
  done
  return 0
}
stopgroup() { # stopgroup PGID
  local end=$((SECONDS + 15))
  kill -TERM -- "-$1" 2>/dev/null || return 0
  while [ $SECONDS -lt $end ]; do ingroup "$1" || return 0; sleep 0.1; done
  kill -KILL -- "-$1" 2>/dev/null || true
  end=$((SECONDS + 5))
  while [ $SECONDS -lt $end ] && ingroup "$1"; do sleep 0.1; done
}
cleanup() {
  trap - EXIT INT TERM
  if [ -n "${pid:-}" ]; then stopgroup "$pid"; wait "$pid" 2>/dev/null || true; fi
  if [ -n "${rec:-}" ]; then kill "$rec" 2>/dev/null || true; fi
  if [ -n "${pulse:-}" ]; then kill "$pulse" 2>/dev/null && wait "$pulse" 2>/dev/null || true; fi
  naming "$data" | while read -r p _; do kill -KILL "$p" 2>/dev/null || true; done
  rm -rf "$data"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
fail() { echo "run-check: FAILED: $*" >&2; tail -20 "$log" >&2; exit 1; }

# The audio server (platform.md §9): a null sink in a private runtime
# directory; ALSA's default device is its pulse plugin, for the cabinet.
scripts/install-packages.sh pulseaudio pulseaudio-utils libasound2-plugins
# HOME moves (the server's cookie and state stay out of the real one), so
# Go's caches and settings are pinned where they are first.
export GOPATH=$(go env GOPATH) GOMODCACHE=$(go env GOMODCACHE) GOCACHE=$(go env GOCACHE) GOENV=$(go env GOENV)
export XDG_RUNTIME_DIR=$data/run HOME=$data/home
mkdir -m 0700 "$XDG_RUNTIME_DIR" "$HOME"
export PULSE_SERVER=unix:$XDG_RUNTIME_DIR/pulse/native ALSA_CONFIG_PATH=$data/asound.conf
printf '</usr/share/alsa/alsa.conf>\npcm.!default { type pulse }\nctl.!default { type pulse }\n' > "$ALSA_CONFIG_PATH"
pulseaudio --daemonize=no --exit-idle-time=-1 -n --load="module-null-sink sink_name=null" \
  --load=module-native-protocol-unix > "$data/pulseaudio.log" 2>&1 &
pulse=$!
for _ in $(seq 100); do pactl info > /dev/null 2>&1 && break; sleep 0.1; done
pactl info > /dev/null 2>&1 || { cat "$data/pulseaudio.log" >&2; fail "the audio server did not start"; }

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
press() { xdotool keydown "$1"; sleep 0.15; xdotool keyup "$1"; sleep 0.5; }
waitmeter bills_in_value 500 1     # the acceptor may still be enabling: press again

# The rules screen from idle: Start there only closes it.
press i
sleep 1
press space
sleep 2
wagered=$(meter coin_in)
[ "${wagered:-0}" = 0 ] || fail "Start on the rules screen wagered $wagered (the rules did not open, or Start played)"
echo "run-check: the rules opened (I) and Start closed them without a game"

# A game with its sound recorded from the null sink's monitor, once the
# cabinet's stream is on the server (the device opens off the window's
# loop, in a second or two, more on a loaded machine).
for _ in $(seq 150); do [ -n "$(pactl list short sink-inputs)" ] && break; sleep 0.2; done
[ -n "$(pactl list short sink-inputs)" ] || fail "the cabinet opened no sound stream on the audio server in 30 s"
parec -d null.monitor --raw --format=s16le --rate=48000 --channels=1 "$data/rec.raw" &
rec=$!
sleep 0.3
waitmeter coin_in 1 space
sleep 3
kill "$rec"; wait "$rec" 2>/dev/null || true; rec=
peak=$(od -An -v -t d2 "$data/rec.raw" | awk '{for(i=1;i<=NF;i++){v=$i<0?-$i:$i; if(v>m)m=v}} END{print m+0}')
[ "$peak" -ge 3000 ] || fail "the game's sound reached the audio server at peak $peak of 32768 (silent; $(stat -c %s "$data/rec.raw") bytes recorded; streams: $(pactl list short sink-inputs | tr '\n' ' '))"
echo "run-check: note credited ($(meter bills_in_value) cents in), a game played ($(meter coin_in) cents wagered), its sound at peak $peak of 32768"

# Cash out, take the ticket from the chute, insert it again. Collect may
# first take a win instead of Risk: press until a voucher is out.
waitmeter tickets_out_count 1 c
press p
waitmeter tickets_in_count 1 0
echo "run-check: a voucher of $(meter tickets_out_value) cents out, taken from the chute and inserted again ($(meter tickets_in_value) cents in)"

# The player card: F4 puts demo card 3 in the devkit's reader (its own
# pcscd with vpcd, installed by make run); the cabinet logs the player in
# at the embedded central system (player_login in the ledger's events).
events() { bin/polaris-ledger dump -a "$data/demo/ledger-a" -b "$data/demo/ledger-b" -json -events 100 2>/dev/null || true; }
press F4
deadline=$(( $(date +%s) + 30 ))
until events | grep -q player_login; do
  [ "$(date +%s)" -lt "$deadline" ] || fail "F4 put no player card in: no player_login in the ledger's events in 30 s"
  sleep 0.5
done
press k
echo "run-check: player card 3 in (F4), logged in, taken out (K)"
# make run ends as on Ctrl-C, and leaves nothing running: its pcscd
# (which names the data directory) ends with the devkit.
stopgroup "$pid"
wait "$pid" 2>/dev/null || true
pid=
for _ in $(seq 50); do [ -z "$(naming "$data")" ] && break; sleep 0.1; done
left=$(naming "$data")
[ -z "$left" ] || fail "left running after make run ended: $left"
echo "run-check: make run ended, nothing it started left running"
echo "run-check: passed"
