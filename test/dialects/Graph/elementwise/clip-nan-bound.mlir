// RUN: not kiln-opt %s -split-input-file 2>&1 | FileCheck %s

// Regression test (was a bug): ClipOp::verify only checks `min > max`, which is false when a bound is
// NaN, so a NaN bound is accepted. Its meaning is undefined and the folder
// produces garbage: clip(x, min NaN, max 6) folds every element to 6.0
// (std::max(NaN, x) is NaN, std::min(6, NaN) is 6). The verifier should
// reject NaN bounds. (Any error on the op's line satisfies this test.)

// Clip with a NaN lower bound.
func.func @clip_nan_min(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: clip-nan-bound.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  %0 = kiln.clip %x min 0x7FF8000000000000 max 6.0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Clip with a NaN upper bound.
func.func @clip_nan_max(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: clip-nan-bound.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  %0 = kiln.clip %x max 0x7FF8000000000000 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
