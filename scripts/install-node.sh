#!/usr/bin/env bash
# install-node.sh: Node.js and npm for the tests that run npm packages,
# Debian's (packages nodejs and npm) where the machine has no npm yet. Not in
# .ci/apt-packages: a machine whose nodejs comes from another archive ships
# npm inside it, and Debian's npm package conflicts with that nodejs.
set -euo pipefail
if command -v node >/dev/null && command -v npm >/dev/null; then exit 0; fi
exec "$(dirname "$0")/install-packages.sh" nodejs npm
