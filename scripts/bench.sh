#!/usr/bin/env bash
# Benchmarks Kiln against ONNX Runtime and PyTorch, one thread each
# (docs/benchmarks.md). Installs the peers if missing (bench/setup.sh),
# builds Kiln (scripts/build.sh) unless --kilnc or --build-dir is given,
# generates the workloads into build/bench and writes
# build/bench/results.{json,md,png}. Other arguments go to bench/run.py,
# e.g. --only bert_tiny resnet18, --reps 10, --size smoke.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

"$root/bench/setup.sh"
case " $* " in
  *" --kilnc"* | *" --build-dir"*) ;;
  *)
    "$root/scripts/install-deps.sh"
    "$root/scripts/build.sh" --target kilnc kiln-run
    set -- --build-dir "${KILN_BUILD_DIR:-$root/build}" "$@"
    ;;
esac
exec /usr/bin/python3 "$root/bench/run.py" "$@"
