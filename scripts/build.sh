#!/usr/bin/env bash
# Builds npython into BUILD_DIR (default: build), configuring it on first use.
# Extra arguments go to `meson setup`, e.g. -Db_sanitize=address,undefined.
# PYTHON (default python3) is the CPython it is built for.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
shift || true
cd "$root"
# meson from requirements.txt, run through that Python (meson builds for the
# Python it runs on), so that no PATH set-up is needed.
meson=("${PYTHON:-python3}" -m mesonbuild.mesonmain)
if [ ! -f "$build/build.ninja" ]; then
  log=$(mktemp)
  "${meson[@]}" setup "$build" "$@" >"$log" 2>&1 || { cat "$log" >&2; rm -f "$log"; exit 1; }
  rm -f "$log"
fi
"${meson[@]}" compile -C "$build" >"$build/compile.log" 2>&1 || { cat "$build/compile.log" >&2; exit 1; }
