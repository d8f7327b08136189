#!/usr/bin/env bash
# Packs the machine's CPython 3.11 (python3), the Python packages npython's
# programs and tests import, and the shared libraries build/npython needs
# beyond a stock Ubuntu 24.04, into one archive, OUT_DIR/npython-runtime.tar.xz
# (default OUT_DIR: build-bundle). The GPU machine has no Python 3.11 and no
# network; scripts/device_env.sh unpacks the archive there and points
# python3 and build/npython at it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-$root/build-bundle}" && cd "${1:-$root/build-bundle}" && pwd)
npython=$root/build/npython
[ -x "$npython" ] || { echo "make_bundle: build npython first (scripts/build.sh)" >&2; exit 1; }

# Where python3 keeps its parts.
read -r prefix libdir stdlib sitepackages soname < <(python3 -c '
import sys, sysconfig
v = sysconfig.get_config_var
print(sys.base_prefix, v("LIBDIR"), sysconfig.get_path("stdlib"), sysconfig.get_path("purelib"), v("INSTSONAME"))')

stage=$(mktemp -d "$out/stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
home=$stage/npython-runtime
mkdir -p "$home/bin" "$home/lib"

cp "$prefix/bin/python3.11" "$home/bin/"
ln -s python3.11 "$home/bin/python3"
cp "$libdir/$soname" "$home/lib/"

# npython's libraries other than libpython and those every Ubuntu 24.04 with
# a C++ compiler's runtime has (glibc, libstdc++, libgcc_s, libgomp):
# none today (asmjit is linked in statically), but any that appears is packed.
ldd "$npython" | awk '$3 ~ /^\// {print $1, $3}' | while read -r name path; do
  case $name in
    libc.so.*|libm.so.*|libstdc++.so.*|libgcc_s.so.*|libgomp.so.*|"$soname") ;;
    *) cp -L "$path" "$home/lib/$name" ;;
  esac
done

# The standard library without what neither programs nor the tests use:
# CPython's own test suite and its C test modules, the GUI and nis (Tk,
# libnsl and libtirpc are not on the GPU machine), the 2to3 and pip
# bootstrap tools, the static library and headers for linking against
# Python, and bytecode caches (Python writes them on first import; keeping
# them would add half again to the archive).
tar -C "$(dirname "$stdlib")" -cf - \
  --exclude=python3.11/site-packages \
  --exclude=python3.11/test --exclude=python3.11/idlelib --exclude=python3.11/tkinter \
  --exclude=python3.11/turtledemo --exclude=python3.11/turtle.py \
  --exclude=python3.11/ensurepip --exclude=python3.11/lib2to3 \
  --exclude='python3.11/config-3.11-*' \
  --exclude='python3.11/lib-dynload/_test*' --exclude='python3.11/lib-dynload/_ctypes_test*' \
  --exclude='python3.11/lib-dynload/_xxtestfuzz*' --exclude='python3.11/lib-dynload/xxlimited*' \
  --exclude='python3.11/lib-dynload/_tkinter*' --exclude='python3.11/lib-dynload/nis.*' \
  --exclude=__pycache__ \
  python3.11 | tar -C "$home/lib" -xf -

# pyenv builds CPython with debug information: two thirds of its binaries' size.
strip --strip-debug "$home/bin/python3.11" "$home/lib/$soname" "$home"/lib/python3.11/lib-dynload/*.so

# site-packages: the runtime packages of requirements.txt (meson only builds)
# and everything they require on Linux, file by file as their RECORDs list
# them (no console scripts, which live outside site-packages, no caches).
mkdir -p "$home/lib/python3.11/site-packages"
python3 - numpy pytest hypothesis <<'PY' | tar -C "$sitepackages" -cf - -T - | tar -C "$home/lib/python3.11/site-packages" -xf -
import sys
from importlib.metadata import distribution
from packaging.requirements import Requirement

todo, seen = sys.argv[1:], set()
while todo:
    dist = distribution(todo.pop())
    if dist.name.lower() in seen:
        continue
    seen.add(dist.name.lower())
    for req in map(Requirement, dist.requires or []):
        if req.marker is None or req.marker.evaluate({"extra": ""}):
            todo.append(req.name)
    for f in dist.files:
        if not str(f).startswith("..") and "__pycache__" not in f.parts:
            print(f)
PY

tar -C "$stage" -cf - npython-runtime | xz -T0 -9 >"$out/npython-runtime.tar.xz.tmp"
mv "$out/npython-runtime.tar.xz.tmp" "$out/npython-runtime.tar.xz"
echo "$out/npython-runtime.tar.xz: $(du -h "$out/npython-runtime.tar.xz" | cut -f1) ($(du -sh "$home" | cut -f1) unpacked)"
