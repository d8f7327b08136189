#!/usr/bin/env bash
# Installs what npython needs to build and test and is not yet on the machine:
# the Debian packages in scripts/apt-packages.txt and the Python packages
# pinned in requirements.txt (into the machine's python3). Quick and silent
# when everything is present.
#
#   scripts/install_deps.sh PYTHON
#
# installs into another CPython (scripts/other_pythons.sh) the pinned
# packages that building npython for it and its differential and CPython
# tests need: numpy, meson, pytest and hypothesis.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

# pip_install_pinned PYTHON [NAME...]: requirements.txt's pins (those NAMEs
# only, when given), when one is missing or at another version.
pip_install_pinned() {
  local python=$1
  shift
  local pins
  pins=$(mktemp)
  python3 - "$root/requirements.txt" "$@" >"$pins" <<'PY'
import sys
wanted = set(sys.argv[2:])
for line in open(sys.argv[1]):
    line = line.split("#")[0].strip()
    if line and (not wanted or line.split("==")[0] in wanted):
        print(line)
PY
  if ! "$python" - "$pins" <<'PY'
import sys
from importlib.metadata import version, PackageNotFoundError
for line in open(sys.argv[1]):
    name, pinned = line.strip().split("==")
    try:
        if version(name) != pinned:
            sys.exit(1)
    except PackageNotFoundError:
        sys.exit(1)
PY
  then
    echo "install_deps: $python -m pip install $(tr '\n' ' ' <"$pins")" >&2
    local user=()
    "$python" -c 'import os, sysconfig; exit(not os.access(sysconfig.get_paths()["purelib"], os.W_OK))' || user=(--user)
    "$python" -m pip install -q --disable-pip-version-check --root-user-action=ignore "${user[@]}" -r "$pins"
  fi
  rm -f "$pins"
}

if [ $# -gt 0 ]; then
  pip_install_pinned "$1" numpy meson pytest hypothesis
  exit 0
fi

if ! python3 -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
  echo "install_deps: npython needs python3 to be CPython 3.11, found: $(python3 -V 2>&1)" >&2
  exit 1
fi

mapfile -t packages < <(grep -vE '^\s*(#|$)' "$root/scripts/apt-packages.txt")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install_deps: apt-get install ${missing[*]}" >&2
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# pip only when a pinned version is missing or different.
pip_install_pinned python3
