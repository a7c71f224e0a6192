#!/usr/bin/env bash
# The README's test command: installs what is missing, builds everything and
# runs every test suite. Exits non-zero on the first failing stage.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

stage() { printf '\n== %s ==\n' "$*"; }

stage "Installing missing Debian packages"
scripts/install-deps.sh

stage "Building (build/)"
start=$(date +%s)
scripts/build.sh
echo "build took $(( $(date +%s) - start )) s"

stage "check-kiln: lit (IR, passes, tools) + gtest"
scripts/build.sh --target check-kiln

stage "The installed package: find_package(Kiln) examples build and run"
scripts/check-install.sh

stage "The runtime builds on its own, without MLIR/LLVM"
scripts/check-runtime-standalone.sh

stage "ASan/UBSan: the malformed-ONNX corpus, the lit suite and gtests"
scripts/check-sanitizers.sh

stage "Fuzzing smoke: the five harnesses, 30 s each"
scripts/fuzz.sh 30

stage "Code-health checks"
scripts/check-code-health.sh

echo
echo "All Kiln tests passed."
