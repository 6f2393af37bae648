#!/usr/bin/env bash
# systemd-analyze verify on every unit in systemd/units, in a scratch root
# holding the host's own units (for sysinit.target & co) plus ours. Any
# diagnostic — an unknown key, an unparsable value, a missing executable —
# fails, not just verify's exit status (it exits 0 on "ignoring" warnings).
# With ROOT=<installed tree> its installed units and binaries are used;
# otherwise systemd/units with the executables stubbed.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/../scripts/need-tools.sh" systemd-analyze || exit 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
r=$tmp/root   # never the tree under test: the host's units are copied in
mkdir -p "$r/usr/lib/systemd/system" "$r/etc/systemd/system"
cp -a /usr/lib/systemd/system/. "$r/usr/lib/systemd/system/" 2>/dev/null || cp -a /lib/systemd/system/. "$r/usr/lib/systemd/system/"
units=()
for u in "$here"/units/*.service; do
  n=$(basename "$u"); units+=("$n")
  src=$u
  if [ -n "${ROOT:-}" ]; then
    src=$ROOT/usr/lib/systemd/system/$n
    [ -f "$src" ] || { echo "units-verify: $n not installed in $ROOT" >&2; exit 1; }
  fi
  cp "$src" "$r/usr/lib/systemd/system/$n"
  # What the unit runs: from the installed tree when given (Xorg excepted:
  # the package depends on it), else a stub.
  for exe in $(sed -n 's/^Exec[A-Za-z]*=[-@:+!]*\([^ ]*\).*/\1/p' "$src"); do
    mkdir -p "$r$(dirname "$exe")"
    if [ -n "${ROOT:-}" ] && [ "$exe" != /usr/bin/Xorg ]; then
      [ -x "$ROOT$exe" ] || { echo "units-verify: $n: $exe not installed in $ROOT" >&2; exit 1; }
      cp "$ROOT$exe" "$r$exe"
    else
      printf '#!/bin/sh\n' >"$r$exe"; chmod +x "$r$exe"
    fi
  done
done
out=$(systemd-analyze verify --root="$r" "${units[@]}" 2>&1) && rc=0 || rc=$?
if [ "$rc" -ne 0 ] || [ -n "$out" ]; then
  echo "units-verify: FAILED (exit $rc)" >&2; echo "$out" >&2; exit 1
fi
echo "units-verify: systemd-analyze verify clean: ${units[*]}"
if [ -n "${SECURITY:-}" ]; then
  for n in "${units[@]}"; do
    systemd-analyze security --offline=true --root="$r" "$n" 2>&1 | tail -n 1
  done
fi
