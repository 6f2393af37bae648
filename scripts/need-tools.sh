#!/usr/bin/env bash
# need-tools.sh PROGRAM...: fails naming the Debian package of every program
# not on the PATH, and what installs it, from .ci/tools (the one table of the
# programs the repository runs).
set -euo pipefail
table="$(cd "$(dirname "$0")/.." && pwd)/.ci/tools"
rc=0
for p in "$@"; do
  command -v "$p" >/dev/null && continue
  row=$(awk -v p="$p" '$1 == p { print $2, $3 }' "$table")
  if [ -z "$row" ]; then
    echo "$p missing, and not in .ci/tools: add it with the Debian package that ships it" >&2
  else
    read -r pkg by <<<"$row"
    case $by in
      .ci/apt-packages) how="listed in .ci/apt-packages: make deps-test installs it" ;;
      required|machine) how="expected on every Debian machine" ;;
      *) how="$by installs it" ;;
    esac
    echo "$p missing: install Debian package ${pkg//|/ or } ($how)" >&2
  fi
  rc=1
done
exit $rc
