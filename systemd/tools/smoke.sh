#!/usr/bin/env bash
# The emulated boot test: the arm64 cabinet from the staged install tree
# ($PI_ROOT) under qemu-aarch64-static (no binfmt needed), against Xvfb:
#   1. `polaris verify` passes on the signed tree (the key built in);
#   2. a copy with one profile byte flipped is refused (exit 3);
#   3. `polaris-devkit headless -fast -script $SCRIPT` (devkit board, emulated
#      acceptor and printer, embedded central system) plays its round, exit 0;
#   4. `polaris-devkit run` puts a frame on the X screen;
#   5. the cabinet binary `polaris run` without a central system refuses to
#      start, saying so: it embeds none (the devkit does).
set -euo pipefail
# tools: qemu-aarch64-static
root=${PI_ROOT:?}; script=${SCRIPT:?}; qroot=${QEMU_ROOT:-/}
qemu=(qemu-aarch64-static -L "$qroot")
tmp=$(mktemp -d); xpid=""; rpid=""
# What it starts (Xvfb, polaris-devkit run with its pcscd) ends with it,
# on a failure, Ctrl-C or SIGTERM too.
cleanup() {
  trap - EXIT INT TERM
  if [ -n "$rpid" ]; then kill "$rpid" 2>/dev/null && wait "$rpid" 2>/dev/null || true; fi
  if [ -n "$xpid" ]; then kill "$xpid" 2>/dev/null && wait "$xpid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
if [ -z "${DISPLAY:-}" ]; then
  for n in $(seq 90 120); do [ -e /tmp/.X11-unix/X$n ] || break; done
  Xvfb ":$n" -screen 0 1024x768x24 -nolisten tcp >"$tmp/xvfb.log" 2>&1 & xpid=$!
  for _ in $(seq 50); do [ -S /tmp/.X11-unix/X$n ] && break; sleep 0.1; done
  export DISPLAY=":$n"
fi
for b in polaris polaris-devkit; do
  file -L "$root/usr/bin/$b" | grep -q 'ARM aarch64' || { echo "smoke: $root/usr/bin/$b is not an AArch64 ELF" >&2; exit 1; }
done

echo "smoke: polaris verify (arm64, qemu)"
"${qemu[@]}" "$root/usr/bin/polaris" verify | tail -n 1

echo "smoke: a tampered profile is refused"
cp -a "$root" "$tmp/tampered"
f="$tmp/tampered/etc/polaris/market/demo.toml"
rm -f "$f"; cp "$root/etc/polaris/market/demo.toml" "$f"   # a copy of its own, not a hard link
printf 'X' | dd of="$f" bs=1 seek=10 conv=notrunc status=none      # one byte
set +e
"${qemu[@]}" "$tmp/tampered/usr/bin/polaris" verify >/dev/null 2>"$tmp/refused"; rc=$?
set -e
if [ "$rc" -ne 3 ] || ! grep -q 'play and money refused' "$tmp/refused"; then
  echo "smoke: tampered tree not refused (exit $rc)" >&2; cat "$tmp/refused" >&2; exit 1
fi
sed 's/^/  /' "$tmp/refused"

echo "smoke: headless devkit cabinet plays $(basename "$script") (arm64, qemu)"
start=$(date +%s.%N)
"${qemu[@]}" "$root/usr/bin/polaris-devkit" headless -fast -data "$tmp/data" -script "$script"
echo "smoke: headless round in $(echo "$(date +%s.%N) - $start" | bc) s"

# The display: `polaris-devkit run` on the devkit board must put a picture
# on the X screen (not one flat colour) within the limit, and still be running.
echo "smoke: polaris-devkit run renders a frame (arm64, qemu, llvmpipe)"
"${qemu[@]}" "$root/usr/bin/polaris-devkit" run -data "$tmp/data-run" >"$tmp/run.log" 2>&1 & rpid=$!
ok=""
for _ in $(seq 60); do
  sleep 2
  kill -0 "$rpid" 2>/dev/null || break
  n=$(xwd -root -silent | python3 "$(dirname "$0")/xwd-colours.py")
  if [ "$n" -gt 16 ]; then ok=$n; break; fi
done
kill "$rpid" 2>/dev/null || true; wait "$rpid" 2>/dev/null || true; rpid=""
[ -n "$ok" ] || { echo "smoke: no frame from polaris-devkit run" >&2; cat "$tmp/run.log" >&2; exit 1; }
echo "smoke: frame on screen ($ok distinct colours)"

echo "smoke: the cabinet binary embeds no central system (arm64, qemu)"
set +e
"${qemu[@]}" "$root/usr/bin/polaris" run -board devkit -data "$tmp/data-cab" >"$tmp/cab.log" 2>&1; rc=$?
set -e
if [ "$rc" -eq 0 ] || ! grep -q 'no central system' "$tmp/cab.log"; then
  echo "smoke: polaris run without a central system did not refuse (exit $rc)" >&2; cat "$tmp/cab.log" >&2; exit 1
fi
{ grep -v '^XGB' "$tmp/cab.log" || true; } | sed 's/^/  /'
echo "smoke: passed in $(echo "$(date +%s.%N) - $start" | bc) s"
