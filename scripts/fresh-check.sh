#!/usr/bin/env bash
# fresh-check.sh: .ci/run as CI runs it on a new machine, in a new Debian 12
# root: mmdebstrap's minbase with ca-certificates and git only (no make, no
# udev, no X, no compilers but what .ci/run installs), this machine's Go
# toolchain and its settings bind-mounted in, its certificate authorities, a clone of HEAD at
# /work/polaris with a copy of ../shared beside it, then `bash .ci/run` under
# CI=true with no standard input. A chroot, not systemd-nspawn (no systemd as
# PID 1 here): proc, sysfs and /dev (with /dev/pts for the serial tests) are
# mounted, and unmounted on the way out.
#   FRESH_DIR   where the root is made (default: a new directory in /var/tmp)
#   FRESH_KEEP=1 keep the root afterwards (its log is FRESH_DIR/ci.log)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "fresh-check: needs root (mmdebstrap, chroot, mounts)" >&2; exit 1; }
"$repo/scripts/install-packages.sh" mmdebstrap
dir=${FRESH_DIR:-$(mktemp -d /var/tmp/polaris-fresh.XXXXXX)}
root=$dir/root
mkdir -p "$dir"
goroot=$(go env GOROOT)
mounts=()
cleanup() {
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -R "${mounts[$i]}" 2>/dev/null || umount -l "${mounts[$i]}" 2>/dev/null || true; done
  # Never remove a root with anything still mounted in it (/dev is the host's).
  if grep -q " $root/" /proc/mounts; then
    echo "fresh-check: mounts remain under $root; not removing it" >&2
  elif [ "${FRESH_KEEP:-}" != 1 ]; then
    rm -rf "$root"
  fi
}
trap cleanup EXIT
mnt() { mount "$@"; mounts+=("${!#}"); }

start=$(date +%s)
echo "fresh-check: a Debian 12 minbase root in $root"
mmdebstrap --quiet --variant=minbase --include=ca-certificates,git \
  --aptopt='Acquire::Check-Valid-Until "false"' bookworm "$root"
echo "fresh-check: root made in $(( $(date +%s) - start )) s"

# The machine's Go: the toolchain, read-only, and its go env settings.
mkdir -p "$root$goroot" "$root/root/.config/go"
mnt --bind "$goroot" "$root$goroot"
mount -o remount,bind,ro "$root$goroot"
cfg=$(go env GOENV)
[ -f "$cfg" ] && cp "$cfg" "$root/root/.config/go/env"
[ -f "$HOME/.npmrc" ] && cp "$HOME/.npmrc" "$root/root/.npmrc"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# The machine's own certificate authorities (a TLS-inspecting egress proxy
# here): without them the root cannot reach the Go module proxy.
if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
  chroot "$root" update-ca-certificates >/dev/null
fi
mnt -t proc proc "$root/proc"
mnt -t sysfs sysfs "$root/sys"
mnt --rbind /dev "$root/dev"
mount --make-rslave "$root/dev"

mkdir -p "$root/work"
git clone -q --no-local "$repo" "$root/work/polaris"
if [ -d "$repo/../shared" ]; then cp -a "$repo/../shared" "$root/work/shared"; chmod -R a-w "$root/work/shared"; fi

echo "fresh-check: bash .ci/run in the root (CI=true), log in $dir/ci.log"
ci_start=$(date +%s)
set +e
chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 CI=true \
  PATH="$goroot/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  bash -c 'cd /work/polaris && bash .ci/run' </dev/null >"$dir/ci.log" 2>&1
rc=$?
set -e
tail -n 25 "$dir/ci.log"
echo "fresh-check: .ci/run exited $rc after $(( $(date +%s) - ci_start )) s ($(( $(date +%s) - start )) s with the root)"
exit $rc
