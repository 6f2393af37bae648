#!/usr/bin/env bash
# systemd-analyze verify on every unit in systemd/units, in a scratch root
# holding the host's own units (for sysinit.target & co) plus ours. Any
# diagnostic — an unknown key, an unparsable value, a missing executable —
# fails, not just verify's exit status (it exits 0 on "ignoring" warnings).
# With ROOT=<installed tree> the real binaries are used; otherwise executables
# the units name are stubbed, so only the unit files are under test.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
command -v systemd-analyze >/dev/null || { echo "units-verify: systemd-analyze missing (Debian package systemd)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
r=${ROOT:-$tmp/root}
mkdir -p "$r/usr/lib/systemd/system" "$r/etc/systemd/system"
cp -a /usr/lib/systemd/system/. "$tmp/host-units/" 2>/dev/null || cp -a /lib/systemd/system/. "$tmp/host-units/"
cp -an "$tmp/host-units/." "$r/usr/lib/systemd/system/"
units=()
for u in "$here"/units/*.service; do
  n=$(basename "$u"); units+=("$n")
  [ -n "${ROOT:-}" ] || cp "$u" "$r/usr/lib/systemd/system/$n"
  # Stub what the unit runs, where the tree does not have it.
  for exe in $(sed -n 's/^Exec[A-Za-z]*=[-@:+!]*\([^ ]*\).*/\1/p' "$u"); do
    if [ ! -x "$r$exe" ]; then
      [ -z "${ROOT:-}" ] || [ "$exe" = /usr/bin/Xorg ] || { echo "units-verify: $n: $exe not in $r" >&2; exit 1; }
      mkdir -p "$r$(dirname "$exe")"; printf '#!/bin/sh\n' >"$r$exe"; chmod +x "$r$exe"
    fi
  done
done
out=$(systemd-analyze verify --root="$r" "${units[@]}" 2>&1) && rc=0 || rc=$?
if [ "$rc" -ne 0 ] || [ -n "$out" ]; then
  echo "units-verify: FAILED (exit $rc)" >&2; echo "$out" >&2; exit 1
fi
echo "units-verify: systemd-analyze verify clean: ${units[*]}"
