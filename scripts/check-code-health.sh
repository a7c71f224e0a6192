#!/usr/bin/env bash
# Cheap checks over tracked sources:
#  - no deprecated MLIR 22 APIs (OpBuilder::create<Op>, applyPatternsAndFoldGreedily);
#  - file-size budget: warn above 1,200 lines, fail above 3,000;
#  - no `cl::opt` outside tools/ (options are data, not globals);
#  - the CUDA backend includes nothing of the CPU backend (shared code lives
#    in device-neutral folders: compiler/MemoryPlanning, compiler/Scheduling).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
status=0

deprecated=$(git grep -nE 'applyPatternsAndFoldGreedily|(builder|rewriter|b)\.create<' \
  -- '*.cpp' '*.h' || true)
if [ -n "$deprecated" ]; then
  echo "error: deprecated MLIR APIs (use Op::create(builder, loc, ...) and applyPatternsGreedily):"
  echo "$deprecated"
  status=1
fi

while read -r lines file; do
  [ "$file" = total ] && continue
  if [ "$lines" -gt 3000 ]; then
    echo "error: $file has $lines lines (budget 3000): split it by concern"
    status=1
  elif [ "$lines" -gt 1200 ]; then
    echo "warning: $file has $lines lines: consider splitting it"
  fi
done < <(git ls-files '*.cpp' '*.h' '*.td' '*.py' | xargs -r wc -l)

globals=$(git grep -nE 'cl::opt<' -- '*.cpp' '*.h' ':!tools/' || true)
if [ -n "$globals" ]; then
  echo "error: cl::opt outside tools/ (pass options or option structs instead):"
  echo "$globals"
  status=1
fi

crossed=$(git grep -nE '#include "compiler/Codegen/CPU/' -- \
  'compiler/Codegen/CUDA/' 'compiler/Target/Cuda*' || true)
if [ -n "$crossed" ]; then
  echo "error: the CUDA backend includes CPU backend headers (move what both need to a device-neutral folder):"
  echo "$crossed"
  status=1
fi

[ $status -eq 0 ] && echo "code health: OK"
exit $status
