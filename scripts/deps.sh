#!/bin/sh
# Install ptxrun's build and test dependencies from Debian's packages.
# As root it runs apt-get; otherwise it prints the command to run.
set -eu
packages="make gcc re2c bison check libjansson-dev libzstd-dev pkg-config libxml2-utils man-db valgrind clang libclang-rt-14-dev python3 python3-numpy python3-pytest python3-setuptools python3-venv"

missing=""
for pkg in $packages; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' ||
        missing="$missing $pkg"
done
if [ -z "$missing" ]; then
    echo "deps: all present ($packages)"
    exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q --no-install-recommends $missing
else
    echo "deps: missing:$missing"
    echo "deps: run: sudo apt-get update && sudo apt-get install -y$missing"
    exit 1
fi
