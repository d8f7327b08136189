# Source from the repo root on the GPU machine (no Python 3.11 there):
#
#   source scripts/device_env.sh && NPYTHON=$PWD/build/npython python3 -m pytest -q -p no:cacheprovider tests/diff
#
# Unpacks the runtime archive of scripts/make_bundle.sh ($NPYTHON_BUNDLE,
# default build-bundle/npython-runtime.tar.xz) into ${TMPDIR:-/tmp} once per
# archive, then makes python3 the archive's CPython 3.11 and lets build/npython
# (whose run path names the build machine's Python) find libpython and the
# standard library there.

# In a subshell, so that its shell options stay out of the caller's shell.
home=$(
  set -euo pipefail
  bundle=${NPYTHON_BUNDLE:-build-bundle/npython-runtime.tar.xz}
  # Named after the archive's contents, so that a new archive is unpacked anew.
  home=${TMPDIR:-/tmp}/npython-runtime-$(sha256sum "$bundle" | cut -c1-12)
  if [ ! -d "$home" ]; then
    # Unpacked beside its final name and renamed, so that an interrupted
    # unpack is never taken for a whole one. By python3 (3.11.4 or later, for
    # tarfile's filters): the GPU machine has one (3.12), maybe no xz program.
    partial=$(mktemp -d "$home.XXXXXX")
    python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2], filter="tar")' \
      "$bundle" "$partial"
    mv -T "$partial/npython-runtime" "$home"
    rmdir "$partial"
  fi
  echo "$home"
) || return 1
export PYTHONHOME=$home
export PATH=$home/bin:$PATH
export LD_LIBRARY_PATH=$home/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
unset home
