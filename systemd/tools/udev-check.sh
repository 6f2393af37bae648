#!/usr/bin/env bash
# Parses systemd/udev/70-polaris.rules with the host's udev (udevadm test on
# a tty, the rules placed in /run/udev/rules.d for the run only): any
# complaint about the file fails. Group gpio is tolerated when the host lacks
# it (the package's postinst creates it). What the rules do to a real USB
# adapter can only be seen on a cabinet: udevadm info /dev/polaris-acceptor.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/../scripts/need-tools.sh" udevadm || exit 1
dev=$(ls -d /sys/class/tty/tty0 /sys/class/tty/ttyS0 /sys/class/tty/ptmx 2>/dev/null | head -n1)
[ -n "$dev" ] || { echo "udev-check: no tty in /sys/class/tty" >&2; exit 1; }
mkdir -p /run/udev/rules.d
dst=/run/udev/rules.d/70-polaris-check.rules
cp "$here/udev/70-polaris.rules" "$dst"
trap 'rm -f "$dst"' EXIT
out=$(timeout 30 udevadm test "$dev" 2>&1 || true)
grep -q "Reading rules file: $dst" <<<"$out" || { echo "udev-check: udevadm did not read the rules" >&2; exit 1; }
bad=$(grep -F "$dst" <<<"$out" | grep -v "Reading rules file" | grep -v "Unknown group 'gpio'" || true)
[ -z "$bad" ] || { echo "udev-check: $bad" >&2; exit 1; }
echo "udev-check: 70-polaris.rules parses cleanly"
