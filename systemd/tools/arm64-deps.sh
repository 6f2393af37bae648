#!/usr/bin/env bash
# Installs what `make build-arm64` and `make smoke-arm64` need on a Debian 12
# (bookworm) x86-64 host: the cross compiler, arm64 as a dpkg foreign
# architecture (multiarch), the arm64 -dev packages ebiten links against, and
# qemu-user-static. Only what is missing; apt-get update only when needed.
set -euo pipefail
sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  echo "adding arm64 as a dpkg foreign architecture (multiarch)"
  $sudo dpkg --add-architecture arm64
  $sudo apt-get update -qq
fi
host=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static xvfb x11-apps python3 pkg-config file bc)
# ebiten v2.8 (GLFW X11) headers + libs; Mesa for llvmpipe under qemu.
arm=(libc6-dev libx11-dev libxrandr-dev libxcursor-dev libxi-dev libxinerama-dev
     libxxf86vm-dev libgl1-mesa-dev libgles2-mesa-dev libasound2-dev
     libgl1-mesa-dri libegl1 libgles2)
exec "$(dirname "$0")/../../scripts/install-packages.sh" "${host[@]}" "${arm[@]/%/:arm64}"
