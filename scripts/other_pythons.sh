#!/usr/bin/env bash
# Prints "VERSION PATH" for each CPython npython supports besides python3's
# (scripts/test.sh tests npython built for each): the newest build of it
# that this machine has with a shared libpython, on PATH or among pyenv's.
set -euo pipefail
supported=(3.11 3.12 3.13)
mine=$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
pyenv_root=$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")
for version in "${supported[@]}"; do
  [ "$version" = "$mine" ] && continue
  found=""
  for candidate in "$(command -v "python$version" 2>/dev/null || true)" \
                   $(ls -d "$pyenv_root"/versions/"$version".*/bin/"python$version" 2>/dev/null | sort -V -r); do
    [ -n "$candidate" ] || continue
    # A pyenv shim exists for versions pyenv does not select: it must run.
    if "$candidate" -c 'import sys, sysconfig; sys.exit(not sysconfig.get_config_var("Py_ENABLE_SHARED"))' 2>/dev/null; then
      found=$candidate
      break
    fi
  done
  [ -n "$found" ] && echo "$version $found"
done
exit 0
