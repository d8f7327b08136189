#!/usr/bin/env bash
# The main job: install what is missing, build, and run the k-means demo
# under npython, eager (NPY_JIT=off) and with the JIT.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install_deps.sh"
"$root/scripts/build.sh" build
for mode in off on; do
  echo "== NPY_JIT=$mode"
  # The program also reports its times in a line for bench/run: not shown here.
  NPY_JIT=$mode "$root/build/npython" "$root/bench/seeds/kmeans_step.py" "${@:-2000000}" 2>&1 |
    grep -v '^npython-bench:'
done
