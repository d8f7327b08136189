#!/usr/bin/env bash
# The whole test suite: install what is missing, build npython twice (release
# and ASan+UBSan), run the C++ unit tests in both, then the Python-driven
# tests (differential corpus, command line) against both builds. Then, for
# each other CPython npython supports that the machine has
# (scripts/other_pythons.sh), npython built for it and its differential
# corpus and CPython's own tests, with that CPython as the reference.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/install_deps.sh
scripts/build.sh build
scripts/build.sh build-asan -Dbuildtype=debugoptimized -Db_lto=false -Db_sanitize=address,undefined -Db_lundef=false

# CPython frees little at exit by design; leaks are not what ASan checks here.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

python3 -m mesonbuild.mesonmain test -C build --print-errorlogs
python3 -m mesonbuild.mesonmain test -C build-asan --print-errorlogs
NPYTHON="$root/build-asan/npython" NPYTHON_SANITIZED=1 python3 -m pytest -q -p no:cacheprovider tests/diff
NPYTHON="$root/build/npython" NPYTHON_REQUIRE_QEMU=1 python3 -m pytest -q -p no:cacheprovider tests

while read -r version python; do
  echo "test.sh: CPython $version ($python)" >&2
  scripts/install_deps.sh "$python"
  PYTHON=$python scripts/build.sh "build-py${version/./}" -Dtests=disabled
  NPYTHON="$root/build-py${version/./}/npython" "$python" -m pytest -q -p no:cacheprovider tests/diff tests/conformance
done < <(scripts/other_pythons.sh)
