#!/usr/bin/env bash
# deb-test DIR: for every .deb in DIR
#   1. lintian: no errors (warnings are listed, not fatal);
#   2. install into a scratch root (dpkg --root, maintainer scripts run
#      chrootless with DPKG_ROOT set): users, groups, ledger directories,
#      unit enabled, signed manifest verifies in place, units verify with
#      the installed binaries;
#   3. remove: binaries and units gone, conffiles kept, unit disabled;
#   4. purge: nothing of the package left but the ledger directories (money
#      records are never deleted) and the service users.
set -euo pipefail
dir=${1:?usage: deb-test DIR}
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "deb-test: $*" >&2; exit 1; }
"$here/../../scripts/need-tools.sh" lintian dpkg-deb xvfb-run || fail "missing programs (above)"
shopt -s nullglob
debs=("$dir"/*.deb)
[ ${#debs[@]} -gt 0 ] || fail "no .deb in $dir"

for deb in "${debs[@]}"; do
  arch=$(dpkg-deb -f "$deb" Architecture)
  echo "== $(basename "$deb")"
  lint=$(lintian --fail-on error --tag-display-limit 0 --allow-root "$deb" 2>&1) || { echo "$lint"; fail "lintian errors in $deb"; }
  echo "lintian: no errors ($(grep -c '^W:' <<<"$lint" || true) warnings, $(grep -c '^I:' <<<"$lint" || true) info)"
  grep '^W:' <<<"$lint" | sed 's/^/  /' || true

  R=$(mktemp -d)
  trap 'rm -rf "$R"' EXIT
  mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates" "$R/var/lib/dpkg/triggers" "$R/etc"
  touch "$R/var/lib/dpkg/status"
  # A base system's account databases (the package adds to them).
  grep -E '^(root|daemon|bin|sys|nobody):' /etc/passwd >"$R/etc/passwd"
  grep -E '^(root|daemon|bin|sys|tty|dialout|video|render|input|nogroup):' /etc/group >"$R/etc/group"
  grep -E '^(root|daemon|bin|sys|nobody):' /etc/shadow >"$R/etc/shadow"
  grep -E '^(root|daemon|bin|sys|tty|dialout|video|render|input|nogroup):' /etc/gshadow >"$R/etc/gshadow"
  dp=(dpkg --root="$R" --force-script-chrootless --force-depends --force-architecture --log=/dev/null)

  "${dp[@]}" -i "$deb" >/dev/null
  [ -x "$R/usr/bin/polaris" ] || fail "install: no /usr/bin/polaris"
  grep -q '^polaris:' "$R/etc/passwd" || fail "install: no polaris user"
  for g in gpio dialout video render input; do
    grep -E "^$g:[^:]*:[0-9]+:(.*,)?polaris(,|$)" "$R/etc/group" >/dev/null || fail "install: polaris not in group $g"
  done
  uid=$(awk -F: '$1=="polaris"{print $3}' "$R/etc/passwd")
  for d in /var/lib/polaris/ledger-a /srv/polaris-b/ledger-b; do
    [ -d "$R$d" ] || fail "install: no $d"
    [ "$(stat -c %u "$R$d")" = "$uid" ] || fail "install: $d not owned by polaris"
  done
  [ -L "$R/etc/systemd/system/graphical.target.wants/polaris.service" ] || fail "install: polaris.service not enabled"
  for f in /etc/polaris/board/rpi-cabinet.toml /etc/polaris/market/demo.toml /etc/default/polaris; do
    grep -qx "$f" "$R/var/lib/dpkg/info/polaris.conffiles" || fail "install: $f is not a conffile"
  done
  # The signed manifest verifies where the package put it, with the key
  # built into the binary (arm64 under qemu; both need an X display: ebiten).
  run=("$R/usr/bin/polaris")
  [ "$arch" = arm64 ] && run=(qemu-aarch64-static -L "${QEMU_ROOT:-/}" "$R/usr/bin/polaris")
  xvfb-run -a "${run[@]}" verify | tail -n 1
  ROOT="$R" "$here/units-verify.sh"

  "${dp[@]}" -r polaris >/dev/null
  [ ! -e "$R/usr/bin/polaris" ] || fail "remove: /usr/bin/polaris still there"
  [ ! -e "$R/usr/lib/systemd/system/polaris.service" ] || fail "remove: unit still there"
  [ ! -e "$R/etc/systemd/system/graphical.target.wants/polaris.service" ] || fail "remove: still enabled"
  [ -f "$R/etc/polaris/board/rpi-cabinet.toml" ] || fail "remove: conffile gone before purge"

  "${dp[@]}" -P polaris >/dev/null
  left=$(cd "$R" && find . -mindepth 1 \
    ! -path './var/lib/dpkg*' ! -path ./var/lib ! -path ./var ! -path ./var/cache ! -path ./etc \
    ! -regex './etc/\(passwd\|group\|shadow\|gshadow\)-?' \
    ! -path ./etc/systemd ! -path ./etc/systemd/system ! -path ./etc/systemd/system/graphical.target.wants \
    ! -path ./srv ! -path './srv/polaris-b*' ! -path './var/lib/polaris' ! -path './var/lib/polaris/ledger-a' | sort)
  [ -z "$left" ] || { echo "$left" >&2; fail "purge left files behind"; }
  [ -d "$R/var/lib/polaris/ledger-a" ] || fail "purge deleted the ledger"
  echo "install, verify, remove, purge: clean (ledger directories and users kept by design)"
  rm -rf "$R"; trap - EXIT
done
