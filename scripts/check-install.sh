#!/usr/bin/env bash
# Installs the build into a fresh prefix and builds the C++ examples against
# it as separate projects (find_package(Kiln)), then runs them: the package
# a user gets from `cmake --install` really works on its own.
#   scripts/check-install.sh        (after scripts/build.sh)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${KILN_BUILD_DIR:-$root/build}"
work="$(mktemp -d /tmp/kiln-install.XXXXXX)"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

echo "== cmake --install into $prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
for header in kiln/kiln.h kiln/Graph.h kiln/PassPlugin.h kiln/runtime/Status.h; do
  test -f "$prefix/include/$header" || { echo "missing $header"; exit 1; }
done
# The API headers must not need MLIR or LLVM (the plugin header may).
if grep -lE '#include "(mlir|llvm)/' "$prefix/include/kiln/kiln.h" \
     "$prefix/include/kiln/Graph.h" "$prefix"/include/kiln/runtime/*.h; then
  echo "an API header includes MLIR or LLVM"; exit 1
fi

export CCACHE_BASEDIR="$root"
for example in graph-jit onnx-jit pass-plugin; do
  echo "== building examples/$example against the installed package"
  cmake -G Ninja -S "$root/examples/$example" -B "$work/$example" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER=clang++-22 -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    >/dev/null
  cmake --build "$work/$example" >/dev/null
done

echo "== running them"
"$work/graph-jit/graph-jit"
/usr/bin/python3 "$root/examples/onnx-cli/make_model.py" "$work/model"
"$work/onnx-jit/onnx-jit" "$work/model/model.onnx" x=2x16
"$prefix/bin/kilnc" compile "$root/test/examples/pass-plugin.mlir" --emit=mlir \
  --load-pass-plugin="$work/pass-plugin/DivToMul.so" |
  grep -q 'example.divisions_rewritten = 1' ||
  { echo "the installed plugin had no effect"; exit 1; }
echo "installed package: OK (headers, libKiln.so, KilnConfig.cmake, kilnc, plugin)"
