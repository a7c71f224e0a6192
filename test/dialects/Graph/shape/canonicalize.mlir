// RUN: kiln-opt %s -canonicalize="test-convergence" -split-input-file | FileCheck %s

// Folders (GraphOpFolders.cpp) and canonicalisation patterns
// (GraphCanonicalization.cpp) of the data-movement ops.

//===----------------------------------------------------------------------===//
// Constant folding
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reshape_of_constant
// CHECK-DAG: %[[A:.*]] = kiln.constant dense<{{\[}}[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
// CHECK-DAG: %[[B:.*]] = kiln.constant dense<[true, false, false, true]> : tensor<4xi1>
// CHECK-NOT: kiln.reshape
// CHECK: return %[[A]], %[[B]]
func.func @reshape_of_constant() -> (tensor<3x2xi32>, tensor<4xi1>) {
  %c = kiln.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0 = kiln.reshape %c : tensor<2x3xi32> -> tensor<3x2xi32>
  %b = kiln.constant dense<[[true, false], [false, true]]> : tensor<2x2xi1>
  %1 = kiln.reshape %b : tensor<2x2xi1> -> tensor<4xi1>
  return %0, %1 : tensor<3x2xi32>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @reshape_of_constant_rank0
// CHECK-DAG: %[[UP:.*]] = kiln.constant dense<2.500000e+00> : tensor<1x1xf16>
// CHECK-DAG: %[[DOWN:.*]] = kiln.constant dense<7> : tensor<i64>
// CHECK-NOT: kiln.reshape
// CHECK: return %[[UP]], %[[DOWN]]
func.func @reshape_of_constant_rank0() -> (tensor<1x1xf16>, tensor<i64>) {
  %s = kiln.constant dense<2.5> : tensor<f16>
  %0 = kiln.reshape %s : tensor<f16> -> tensor<1x1xf16>
  %v = kiln.constant dense<[7]> : tensor<1xi64>
  %1 = kiln.reshape %v : tensor<1xi64> -> tensor<i64>
  return %0, %1 : tensor<1x1xf16>, tensor<i64>
}

// -----

// CHECK-LABEL: func.func @transpose_of_constant_2d
// CHECK: %[[C:.*]] = kiln.constant dense<{{\[}}[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>
// CHECK-NOT: kiln.transpose
// CHECK: return %[[C]]
func.func @transpose_of_constant_2d() -> tensor<3x2xi32> {
  %c = kiln.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0 = kiln.transpose %c [1, 0] : tensor<2x3xi32> -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}

// -----

// result[i][j][k] = input[j][k][i].
// CHECK-LABEL: func.func @transpose_of_constant_3d
// CHECK: %[[C:.*]] = kiln.constant dense<{{\[}}{{\[}}[0, 4, 8], [12, 16, 20]], {{\[}}[1, 5, 9], [13, 17, 21]], {{\[}}[2, 6, 10], [14, 18, 22]], {{\[}}[3, 7, 11], [15, 19, 23]]]> : tensor<4x2x3xi64>
// CHECK-NOT: kiln.transpose
// CHECK: return %[[C]]
func.func @transpose_of_constant_3d() -> tensor<4x2x3xi64> {
  %c = kiln.constant dense<[[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]],
                            [[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]]>
      : tensor<2x3x4xi64>
  %0 = kiln.transpose %c [2, 0, 1] : tensor<2x3x4xi64> -> tensor<4x2x3xi64>
  return %0 : tensor<4x2x3xi64>
}

// -----

// CHECK-LABEL: func.func @transpose_of_constant_bf16
// CHECK: %[[C:.*]] = kiln.constant dense<{{\[}}[1.000000e+00, 3.000000e+00], [-2.000000e+00, 5.000000e-01]]> : tensor<2x2xbf16>
// CHECK-NOT: kiln.transpose
// CHECK: return %[[C]]
func.func @transpose_of_constant_bf16() -> tensor<2x2xbf16> {
  %c = kiln.constant dense<[[1.0, -2.0], [3.0, 0.5]]> : tensor<2x2xbf16>
  %0 = kiln.transpose %c [1, 0] : tensor<2x2xbf16> -> tensor<2x2xbf16>
  return %0 : tensor<2x2xbf16>
}

// -----

// CHECK-LABEL: func.func @transpose_of_splat
// CHECK: %[[C:.*]] = kiln.constant dense<3> : tensor<4x2xi8>
// CHECK-NOT: kiln.transpose
// CHECK: return %[[C]]
func.func @transpose_of_splat() -> tensor<4x2xi8> {
  %c = kiln.constant dense<3> : tensor<2x4xi8>
  %0 = kiln.transpose %c [1, 0] : tensor<2x4xi8> -> tensor<4x2xi8>
  return %0 : tensor<4x2xi8>
}

// -----

// CHECK-LABEL: func.func @broadcast_of_constant
// CHECK-DAG: %[[COL:.*]] = kiln.constant dense<{{\[}}[1.000000e+00, 1.000000e+00, 1.000000e+00], [2.000000e+00, 2.000000e+00, 2.000000e+00]]> : tensor<2x3xf32>
// CHECK-DAG: %[[ROW:.*]] = kiln.constant dense<{{\[}}{{\[}}[1, 2, 3], [1, 2, 3]]]> : tensor<1x2x3xi32>
// CHECK-DAG: %[[SCALAR:.*]] = kiln.constant dense<true> : tensor<2x2xi1>
// CHECK-NOT: kiln.broadcast
// CHECK: return %[[COL]], %[[ROW]], %[[SCALAR]]
func.func @broadcast_of_constant() -> (tensor<2x3xf32>, tensor<1x2x3xi32>, tensor<2x2xi1>) {
  %col = kiln.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %0 = kiln.broadcast %col : tensor<2x1xf32> -> tensor<2x3xf32>
  %row = kiln.constant dense<[1, 2, 3]> : tensor<3xi32>
  %1 = kiln.broadcast %row : tensor<3xi32> -> tensor<1x2x3xi32>
  %s = kiln.constant dense<true> : tensor<i1>
  %2 = kiln.broadcast %s : tensor<i1> -> tensor<2x2xi1>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<1x2x3xi32>, tensor<2x2xi1>
}

// -----

// CHECK-LABEL: func.func @concat_of_constants
// CHECK-DAG: %[[C0:.*]] = kiln.constant dense<{{\[}}[1, 2, 5, 7], [3, 4, 6, 7]]> : tensor<2x4xi32>
// CHECK-DAG: %[[C1:.*]] = kiln.constant dense<{{\[}}[1, 2], [3, 4], [1, 2], [3, 4], [7, 7]]> : tensor<5x2xi32>
// CHECK-NOT: kiln.concat
// CHECK: return %[[C0]], %[[C1]]
func.func @concat_of_constants() -> (tensor<2x4xi32>, tensor<5x2xi32>) {
  %a = kiln.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %b = kiln.constant dense<[[5], [6]]> : tensor<2x1xi32>
  %c = kiln.constant dense<7> : tensor<2x1xi32>
  %0 = kiln.concat %a, %b, %c axis 1
      : (tensor<2x2xi32>, tensor<2x1xi32>, tensor<2x1xi32>) -> tensor<2x4xi32>
  %s = kiln.constant dense<7> : tensor<1x2xi32>
  %1 = kiln.concat %a, %a, %s axis -2
      : (tensor<2x2xi32>, tensor<2x2xi32>, tensor<1x2xi32>) -> tensor<5x2xi32>
  return %0, %1 : tensor<2x4xi32>, tensor<5x2xi32>
}

// -----

// Shape vectors as ONNX exporters build them.
// CHECK-LABEL: func.func @concat_of_shape_vectors
// CHECK: %[[C:.*]] = kiln.constant dense<[1, 128, -1, 64]> : tensor<4xi64>
// CHECK-NOT: kiln.concat
// CHECK: return %[[C]]
func.func @concat_of_shape_vectors() -> tensor<4xi64> {
  %a = kiln.constant dense<[1, 128]> : tensor<2xi64>
  %b = kiln.constant dense<-1> : tensor<1xi64>
  %c = kiln.constant dense<[64]> : tensor<1xi64>
  %0 = kiln.concat %a, %b, %c axis 0
      : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// CHECK-LABEL: func.func @slice_of_constant
// CHECK-DAG: %[[POS:.*]] = kiln.constant dense<{{\[}}[1, 3], [9, 11]]> : tensor<2x2xi32>
// CHECK-DAG: %[[NEG:.*]] = kiln.constant dense<[6, 4, 2]> : tensor<3xi64>
// CHECK-DAG: %[[REV:.*]] = kiln.constant dense<{{\[}}[11, 8], [7, 4], [3, 0]]> : tensor<3x2xi32>
// CHECK-NOT: kiln.slice
// CHECK: return %[[POS]], %[[NEG]], %[[REV]]
func.func @slice_of_constant() -> (tensor<2x2xi32>, tensor<3xi64>, tensor<3x2xi32>) {
  %c = kiln.constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]> : tensor<3x4xi32>
  %0 = kiln.slice %c starts [0, 1] limits [3, 4] steps [2, 2]
      : tensor<3x4xi32> -> tensor<2x2xi32>
  %v = kiln.constant dense<[0, 1, 2, 3, 4, 5, 6]> : tensor<7xi64>
  %1 = kiln.slice %v starts [6] limits [0] steps [-2] : tensor<7xi64> -> tensor<3xi64>
  // Both dimensions backwards, dimension 1 with step -3 down to limit -1.
  %2 = kiln.slice %c starts [2, 3] limits [-1, -1] steps [-1, -3]
      : tensor<3x4xi32> -> tensor<3x2xi32>
  return %0, %1, %2 : tensor<2x2xi32>, tensor<3xi64>, tensor<3x2xi32>
}

// -----

// CHECK-LABEL: func.func @slice_of_splat
// CHECK: %[[C:.*]] = kiln.constant dense<1.500000e+00> : tensor<2x1xf16>
// CHECK-NOT: kiln.slice
// CHECK: return %[[C]]
func.func @slice_of_splat() -> tensor<2x1xf16> {
  %c = kiln.constant dense<1.5> : tensor<4x4xf16>
  %0 = kiln.slice %c starts [3, 1] limits [-1, 2] steps [-2, 1]
      : tensor<4x4xf16> -> tensor<2x1xf16>
  return %0 : tensor<2x1xf16>
}

// -----

// CHECK-LABEL: func.func @gather_of_constants
// CHECK-DAG: %[[G0:.*]] = kiln.constant dense<{{\[}}[3, 1], [6, 4]]> : tensor<2x2xi64>
// CHECK-DAG: %[[G1:.*]] = kiln.constant dense<{{\[}}{{\[}}[4, 5, 6], [1, 2, 3]], {{\[}}[4, 5, 6], [4, 5, 6]]]> : tensor<2x2x3xi64>
// CHECK-DAG: %[[G2:.*]] = kiln.constant dense<[2, 5]> : tensor<2xi64>
// CHECK-NOT: kiln.gather
// CHECK: return %[[G0]], %[[G1]], %[[G2]]
func.func @gather_of_constants() -> (tensor<2x2xi64>, tensor<2x2x3xi64>, tensor<2xi64>) {
  %c = kiln.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  // Negative index, i32 indices, negative axis.
  %i = kiln.constant dense<[-1, 0]> : tensor<2xi32>
  %0 = kiln.gather %c[%i] axis -1 : (tensor<2x3xi64>, tensor<2xi32>) -> tensor<2x2xi64>
  // Rank-2 i64 indices along axis 0.
  %j = kiln.constant dense<[[1, 0], [-1, 1]]> : tensor<2x2xi64>
  %1 = kiln.gather %c[%j] axis 0 : (tensor<2x3xi64>, tensor<2x2xi64>) -> tensor<2x2x3xi64>
  // Scalar index: the axis disappears.
  %k = kiln.constant dense<-2> : tensor<i64>
  %2 = kiln.gather %c[%k] axis 1 : (tensor<2x3xi64>, tensor<i64>) -> tensor<2xi64>
  return %0, %1, %2 : tensor<2x2xi64>, tensor<2x2x3xi64>, tensor<2xi64>
}

// -----

// CHECK-LABEL: func.func @gather_of_constant_floats
// CHECK-DAG: %[[F:.*]] = kiln.constant dense<{{\[}}[2.500000e-01, -1.000000e+00], [2.500000e-01, -1.000000e+00]]> : tensor<2x2xf16>
// CHECK-DAG: %[[B:.*]] = kiln.constant dense<[false, true, true]> : tensor<3xi1>
// CHECK-NOT: kiln.gather
// CHECK: return %[[F]], %[[B]]
func.func @gather_of_constant_floats() -> (tensor<2x2xf16>, tensor<3xi1>) {
  %c = kiln.constant dense<[-1.0, 0.25]> : tensor<2xf16>
  %i = kiln.constant dense<[[1, 0], [-1, -2]]> : tensor<2x2xi32>
  %0 = kiln.gather %c[%i] axis 0 : (tensor<2xf16>, tensor<2x2xi32>) -> tensor<2x2xf16>
  %b = kiln.constant dense<[true, false]> : tensor<2xi1>
  %j = kiln.constant dense<[1, 0, -2]> : tensor<3xi64>
  %1 = kiln.gather %b[%j] axis 0 : (tensor<2xi1>, tensor<3xi64>) -> tensor<3xi1>
  return %0, %1 : tensor<2x2xf16>, tensor<3xi1>
}

// -----

// A splat table gives a splat, whatever the (in-range) indices.
// CHECK-LABEL: func.func @gather_of_splat
// CHECK: %[[C:.*]] = kiln.constant dense<9> : tensor<3x4xi8>
// CHECK-NOT: kiln.gather
// CHECK: return %[[C]]
func.func @gather_of_splat() -> tensor<3x4xi8> {
  %c = kiln.constant dense<9> : tensor<5x4xi8>
  %i = kiln.constant dense<[4, 0, -5]> : tensor<3xi64>
  %0 = kiln.gather %c[%i] axis 0 : (tensor<5x4xi8>, tensor<3xi64>) -> tensor<3x4xi8>
  return %0 : tensor<3x4xi8>
}

// -----

// The ONNX idiom `Shape -> Gather -> Unsqueeze -> Concat`: the new shape
// [d0, d1 * d2, -1] of a [2, 3, 4] tensor and the reversed tail Shape[:0:-1]
// both fold to constants; only the data reshape remains.
// CHECK-LABEL: func.func @onnx_shape_chain
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-DAG: %[[SHAPE:.*]] = kiln.constant dense<[2, 12, -1]> : tensor<3xi64>
// CHECK-DAG: %[[TAIL:.*]] = kiln.constant dense<[4, 3]> : tensor<2xi64>
// CHECK-DAG: %[[Y:.*]] = kiln.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<2x12x1xf32>
// CHECK-NOT: kiln.gather
// CHECK-NOT: kiln.concat
// CHECK-NOT: kiln.slice
// CHECK-NOT: kiln.mul
// CHECK: return %[[Y]], %[[SHAPE]], %[[TAIL]]
func.func @onnx_shape_chain(%x: tensor<2x3x4xf32>)
    -> (tensor<2x12x1xf32>, tensor<3xi64>, tensor<2xi64>) {
  %shape = kiln.constant dense<[2, 3, 4]> : tensor<3xi64>
  %i0 = kiln.constant dense<0> : tensor<i64>
  %i1 = kiln.constant dense<1> : tensor<i32>
  %i2 = kiln.constant dense<-1> : tensor<i64>
  %d0 = kiln.gather %shape[%i0] axis 0 : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %d1 = kiln.gather %shape[%i1] axis 0 : (tensor<3xi64>, tensor<i32>) -> tensor<i64>
  %d2 = kiln.gather %shape[%i2] axis 0 : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %d12 = kiln.mul %d1, %d2 : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %u0 = kiln.reshape %d0 : tensor<i64> -> tensor<1xi64>
  %u12 = kiln.reshape %d12 : tensor<i64> -> tensor<1xi64>
  %m = kiln.constant dense<[-1]> : tensor<1xi64>
  %new = kiln.concat %u0, %u12, %m axis 0
      : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xi64>
  %tail = kiln.slice %shape starts [2] limits [0] steps [-1] : tensor<3xi64> -> tensor<2xi64>
  %y = kiln.reshape %x : tensor<2x3x4xf32> -> tensor<2x12x1xf32>
  return %y, %new, %tail : tensor<2x12x1xf32>, tensor<3xi64>, tensor<2xi64>
}

// -----

// Out-of-range constant indices do not fold (the importer reports them).
// CHECK-LABEL: func.func @no_gather_out_of_range
// CHECK-DAG: %[[C:.*]] = kiln.constant dense<[1, 2, 3]> : tensor<3xi64>
// CHECK-DAG: %[[HI:.*]] = kiln.constant dense<[0, 3]> : tensor<2xi64>
// CHECK-DAG: %[[LO:.*]] = kiln.constant dense<-4> : tensor<i32>
// CHECK: %[[G0:.*]] = kiln.gather %[[C]][%[[HI]]] axis 0
// CHECK: %[[G1:.*]] = kiln.gather %[[C]][%[[LO]]] axis 0
// CHECK: return %[[G0]], %[[G1]]
func.func @no_gather_out_of_range() -> (tensor<2xi64>, tensor<i64>) {
  %c = kiln.constant dense<[1, 2, 3]> : tensor<3xi64>
  %hi = kiln.constant dense<[0, 3]> : tensor<2xi64>
  %0 = kiln.gather %c[%hi] axis 0 : (tensor<3xi64>, tensor<2xi64>) -> tensor<2xi64>
  %lo = kiln.constant dense<-4> : tensor<i32>
  %1 = kiln.gather %c[%lo] axis 0 : (tensor<3xi64>, tensor<i32>) -> tensor<i64>
  return %0, %1 : tensor<2xi64>, tensor<i64>
}

// -----

// Even a splat table does not hide an out-of-range index.
// CHECK-LABEL: func.func @no_gather_of_splat_out_of_range
// CHECK: kiln.gather
func.func @no_gather_of_splat_out_of_range() -> tensor<2x4xi8> {
  %c = kiln.constant dense<9> : tensor<5x4xi8>
  %i = kiln.constant dense<[1, 5]> : tensor<2xi64>
  %0 = kiln.gather %c[%i] axis 0 : (tensor<5x4xi8>, tensor<2xi64>) -> tensor<2x4xi8>
  return %0 : tensor<2x4xi8>
}

// -----

// Constant indices into a non-constant table: nothing to fold.
// CHECK-LABEL: func.func @no_gather_of_argument
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32>)
// CHECK: %[[I:.*]] = kiln.constant dense<[2, 0]> : tensor<2xi64>
// CHECK: %[[G:.*]] = kiln.gather %[[X]][%[[I]]] axis 0
// CHECK: return %[[G]]
func.func @no_gather_of_argument(%x: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %i = kiln.constant dense<[2, 0]> : tensor<2xi64>
  %0 = kiln.gather %x[%i] axis 0 : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Folding is capped at 65536 elements unless the result is a splat.
// CHECK-LABEL: func.func @no_broadcast_fold_too_large
// CHECK-DAG: %[[COL:.*]] = kiln.constant dense<{{\[}}[1.000000e+00], [2.000000e+00]]> : tensor<2x1xf32>
// CHECK-DAG: %[[SPLAT:.*]] = kiln.constant dense<3.000000e+00> : tensor<2x40000xf32>
// CHECK: %[[B:.*]] = kiln.broadcast %[[COL]] : tensor<2x1xf32> -> tensor<2x40000xf32>
// CHECK: return %[[B]], %[[SPLAT]]
func.func @no_broadcast_fold_too_large() -> (tensor<2x40000xf32>, tensor<2x40000xf32>) {
  %col = kiln.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %0 = kiln.broadcast %col : tensor<2x1xf32> -> tensor<2x40000xf32>
  %s = kiln.constant dense<3.0> : tensor<f32>
  %1 = kiln.broadcast %s : tensor<f32> -> tensor<2x40000xf32>
  return %0, %1 : tensor<2x40000xf32>, tensor<2x40000xf32>
}

// -----

// CHECK-LABEL: func.func @no_concat_fold_too_large
// CHECK: %[[C:.*]] = kiln.concat
// CHECK-SAME: -> tensor<70001xi8>
// CHECK: return %[[C]]
func.func @no_concat_fold_too_large() -> tensor<70001xi8> {
  %a = kiln.constant dense<1> : tensor<70000xi8>
  %b = kiln.constant dense<2> : tensor<1xi8>
  %0 = kiln.concat %a, %b axis 0 : (tensor<70000xi8>, tensor<1xi8>) -> tensor<70001xi8>
  return %0 : tensor<70001xi8>
}

// -----

// A resource blob is not read by the folders.
// CHECK-LABEL: func.func @no_fold_of_resource
// CHECK: %[[W:.*]] = kiln.constant dense_resource<weights> : tensor<2xf32>
// CHECK: %[[R:.*]] = kiln.reshape %[[W]] : tensor<2xf32> -> tensor<1x2xf32>
// CHECK: return %[[R]]
func.func @no_fold_of_resource() -> tensor<1x2xf32> {
  %w = kiln.constant dense_resource<weights> : tensor<2xf32>
  %0 = kiln.reshape %w : tensor<2xf32> -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040"
    }
  }
#-}

//===----------------------------------------------------------------------===//
// Identity folds
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @transpose_identity
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>, %[[S:.*]]: tensor<i8>)
// CHECK-NOT: kiln.transpose
// CHECK: return %[[X]], %[[S]]
func.func @transpose_identity(%x: tensor<2x3x4xf32>, %s: tensor<i8>)
    -> (tensor<2x3x4xf32>, tensor<i8>) {
  %0 = kiln.transpose %x [0, 1, 2] : tensor<2x3x4xf32> -> tensor<2x3x4xf32>
  %1 = kiln.transpose %s [] : tensor<i8> -> tensor<i8>
  return %0, %1 : tensor<2x3x4xf32>, tensor<i8>
}

// -----

// CHECK-LABEL: func.func @reshape_same_type
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf16>)
// CHECK-NOT: kiln.reshape
// CHECK: return %[[X]]
func.func @reshape_same_type(%x: tensor<2x3xf16>) -> tensor<2x3xf16> {
  %0 = kiln.reshape %x : tensor<2x3xf16> -> tensor<2x3xf16>
  return %0 : tensor<2x3xf16>
}

// -----

// CHECK-LABEL: func.func @broadcast_same_type
// CHECK-SAME: (%[[X:.*]]: tensor<2x1xi1>)
// CHECK-NOT: kiln.broadcast
// CHECK: return %[[X]]
func.func @broadcast_same_type(%x: tensor<2x1xi1>) -> tensor<2x1xi1> {
  %0 = kiln.broadcast %x : tensor<2x1xi1> -> tensor<2x1xi1>
  return %0 : tensor<2x1xi1>
}

// -----

// CHECK-LABEL: func.func @concat_single_input
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xbf16>)
// CHECK-NOT: kiln.concat
// CHECK: return %[[X]]
func.func @concat_single_input(%x: tensor<2x3xbf16>) -> tensor<2x3xbf16> {
  %0 = kiln.concat %x axis -1 : (tensor<2x3xbf16>) -> tensor<2x3xbf16>
  return %0 : tensor<2x3xbf16>
}

// -----

// CHECK-LABEL: func.func @slice_full
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK-NOT: kiln.slice
// CHECK: return %[[X]]
func.func @slice_full(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = kiln.slice %x starts [0, 0] limits [4, 8] steps [1, 1]
      : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @pad_zero
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[Y:.*]]: tensor<3xi32>)
// CHECK-NOT: kiln.pad
// CHECK: return %[[X]], %[[Y]]
func.func @pad_zero(%x: tensor<4x8xf32>, %y: tensor<3xi32>)
    -> (tensor<4x8xf32>, tensor<3xi32>) {
  %0 = kiln.pad %x low [0, 0] high [0, 0] constant 5.0 : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = kiln.pad %y low [0] high [0] reflect 0.0 : tensor<3xi32> -> tensor<3xi32>
  return %0, %1 : tensor<4x8xf32>, tensor<3xi32>
}

// -----

// A reversal keeps the type but not the values.
// CHECK-LABEL: func.func @no_slice_fold_reverse
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK: %[[S:.*]] = kiln.slice %[[X]] starts [3, 0] limits [-1, 8] steps [-1, 1]
// CHECK: return %[[S]]
func.func @no_slice_fold_reverse(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = kiln.slice %x starts [3, 0] limits [-1, 8] steps [-1, 1]
      : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A pad that adds elements is not an identity.
// CHECK-LABEL: func.func @no_pad_fold
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK: %[[P:.*]] = kiln.pad %[[X]] low [0, 1] high [0, 0] constant
// CHECK: return %[[P]]
func.func @no_pad_fold(%x: tensor<4x8xf32>) -> tensor<4x9xf32> {
  %0 = kiln.pad %x low [0, 1] high [0, 0] constant 0.0 : tensor<4x8xf32> -> tensor<4x9xf32>
  return %0 : tensor<4x9xf32>
}

//===----------------------------------------------------------------------===//
// Canonicalisation patterns
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @reshape_chain
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[R:.*]] = kiln.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<4x6xf32>
// CHECK-NOT: kiln.reshape
// CHECK: return %[[R]]
func.func @reshape_chain(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %0 = kiln.reshape %x : tensor<2x3x4xf32> -> tensor<24xf32>
  %1 = kiln.reshape %0 : tensor<24xf32> -> tensor<2x12xf32>
  %2 = kiln.reshape %1 : tensor<2x12xf32> -> tensor<4x6xf32>
  return %2 : tensor<4x6xf32>
}

// -----

// A chain that comes back to the input's type disappears.
// CHECK-LABEL: func.func @reshape_chain_round_trip
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xi8>)
// CHECK-NOT: kiln.reshape
// CHECK: return %[[X]]
func.func @reshape_chain_round_trip(%x: tensor<2x3xi8>) -> tensor<2x3xi8> {
  %0 = kiln.reshape %x : tensor<2x3xi8> -> tensor<6x1xi8>
  %1 = kiln.reshape %0 : tensor<6x1xi8> -> tensor<2x3xi8>
  return %1 : tensor<2x3xi8>
}

// -----

// The inner reshape stays while something else uses it.
// CHECK-LABEL: func.func @reshape_chain_shared
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-DAG: %[[A:.*]] = kiln.reshape %[[X]] : tensor<2x3xf32> -> tensor<6xf32>
// CHECK-DAG: %[[B:.*]] = kiln.reshape %[[X]] : tensor<2x3xf32> -> tensor<3x2xf32>
// CHECK: return %[[A]], %[[B]]
func.func @reshape_chain_shared(%x: tensor<2x3xf32>) -> (tensor<6xf32>, tensor<3x2xf32>) {
  %0 = kiln.reshape %x : tensor<2x3xf32> -> tensor<6xf32>
  %1 = kiln.reshape %0 : tensor<6xf32> -> tensor<3x2xf32>
  return %0, %1 : tensor<6xf32>, tensor<3x2xf32>
}

// -----

// transpose(transpose(x, [1, 2, 0]), [0, 2, 1]) = transpose(x, [1, 0, 2]).
// CHECK-LABEL: func.func @transpose_chain
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[T:.*]] = kiln.transpose %[[X]] [1, 0, 2] : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
// CHECK-NOT: kiln.transpose
// CHECK: return %[[T]]
func.func @transpose_chain(%x: tensor<2x3x4xf32>) -> tensor<3x2x4xf32> {
  %0 = kiln.transpose %x [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %1 = kiln.transpose %0 [0, 2, 1] : tensor<3x4x2xf32> -> tensor<3x2x4xf32>
  return %1 : tensor<3x2x4xf32>
}

// -----

// A transpose followed by its inverse is the identity.
// CHECK-LABEL: func.func @transpose_inverse
// CHECK-SAME: (%[[X:.*]]: tensor<1x128x12x64xbf16>)
// CHECK-NOT: kiln.transpose
// CHECK: return %[[X]]
func.func @transpose_inverse(%x: tensor<1x128x12x64xbf16>) -> tensor<1x128x12x64xbf16> {
  %0 = kiln.transpose %x [0, 2, 3, 1] : tensor<1x128x12x64xbf16> -> tensor<1x12x64x128xbf16>
  %1 = kiln.transpose %0 [0, 3, 1, 2] : tensor<1x12x64x128xbf16> -> tensor<1x128x12x64xbf16>
  return %1 : tensor<1x128x12x64xbf16>
}

// -----

// Three transposes compose into one.
// CHECK-LABEL: func.func @transpose_chain_of_three
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4x5xf32>)
// CHECK: %[[T:.*]] = kiln.transpose %[[X]] [3, 2, 1, 0] : tensor<2x3x4x5xf32> -> tensor<5x4x3x2xf32>
// CHECK-NOT: kiln.transpose
// CHECK: return %[[T]]
func.func @transpose_chain_of_three(%x: tensor<2x3x4x5xf32>) -> tensor<5x4x3x2xf32> {
  %0 = kiln.transpose %x [1, 0, 2, 3] : tensor<2x3x4x5xf32> -> tensor<3x2x4x5xf32>
  %1 = kiln.transpose %0 [0, 1, 3, 2] : tensor<3x2x4x5xf32> -> tensor<3x2x5x4xf32>
  %2 = kiln.transpose %1 [2, 3, 0, 1] : tensor<3x2x5x4xf32> -> tensor<5x4x3x2xf32>
  return %2 : tensor<5x4x3x2xf32>
}

// -----

// Only size-1 dimensions move: the layout is unchanged, a reshape suffices.
// CHECK-LABEL: func.func @transpose_of_unit_dims
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x1x3xf32>, %[[Y:.*]]: tensor<8x1xi32>)
// CHECK-DAG: %[[A:.*]] = kiln.reshape %[[X]] : tensor<1x4x1x3xf32> -> tensor<4x1x3x1xf32>
// CHECK-DAG: %[[B:.*]] = kiln.reshape %[[Y]] : tensor<8x1xi32> -> tensor<1x8xi32>
// CHECK-NOT: kiln.transpose
// CHECK: return %[[A]], %[[B]]
func.func @transpose_of_unit_dims(%x: tensor<1x4x1x3xf32>, %y: tensor<8x1xi32>)
    -> (tensor<4x1x3x1xf32>, tensor<1x8xi32>) {
  %0 = kiln.transpose %x [1, 0, 3, 2] : tensor<1x4x1x3xf32> -> tensor<4x1x3x1xf32>
  %1 = kiln.transpose %y [1, 0] : tensor<8x1xi32> -> tensor<1x8xi32>
  return %0, %1 : tensor<4x1x3x1xf32>, tensor<1x8xi32>
}

// -----

// Permuting only size-1 dimensions among themselves gives back the same type.
// CHECK-LABEL: func.func @transpose_of_unit_dims_same_type
// CHECK-SAME: (%[[X:.*]]: tensor<1x5x1xf16>)
// CHECK-NOT: kiln.transpose
// CHECK-NOT: kiln.reshape
// CHECK: return %[[X]]
func.func @transpose_of_unit_dims_same_type(%x: tensor<1x5x1xf16>) -> tensor<1x5x1xf16> {
  %0 = kiln.transpose %x [2, 1, 0] : tensor<1x5x1xf16> -> tensor<1x5x1xf16>
  return %0 : tensor<1x5x1xf16>
}

// -----

// A transpose chain whose composition only moves a unit dimension, then
// folds with the reshape after it.
// CHECK-LABEL: func.func @transpose_chain_to_reshape
// CHECK-SAME: (%[[X:.*]]: tensor<2x1x3xf32>)
// CHECK: %[[R:.*]] = kiln.reshape %[[X]] : tensor<2x1x3xf32> -> tensor<6xf32>
// CHECK-NOT: kiln.transpose
// CHECK: return %[[R]]
func.func @transpose_chain_to_reshape(%x: tensor<2x1x3xf32>) -> tensor<6xf32> {
  %0 = kiln.transpose %x [2, 0, 1] : tensor<2x1x3xf32> -> tensor<3x2x1xf32>
  %1 = kiln.transpose %0 [1, 0, 2] : tensor<3x2x1xf32> -> tensor<2x3x1xf32>
  %2 = kiln.reshape %1 : tensor<2x3x1xf32> -> tensor<6xf32>
  return %2 : tensor<6xf32>
}

// -----

// Moving non-unit dimensions changes the layout: the transpose stays.
// CHECK-LABEL: func.func @no_transpose_to_reshape
// CHECK-SAME: (%[[X:.*]]: tensor<1x128x12x64xf32>, %[[Y:.*]]: tensor<2x1x3xf32>)
// CHECK: %[[A:.*]] = kiln.transpose %[[X]] [0, 2, 1, 3] : tensor<1x128x12x64xf32> -> tensor<1x12x128x64xf32>
// CHECK: %[[B:.*]] = kiln.transpose %[[Y]] [2, 1, 0] : tensor<2x1x3xf32> -> tensor<3x1x2xf32>
// CHECK-NOT: kiln.reshape
// CHECK: return %[[A]], %[[B]]
func.func @no_transpose_to_reshape(%x: tensor<1x128x12x64xf32>, %y: tensor<2x1x3xf32>)
    -> (tensor<1x12x128x64xf32>, tensor<3x1x2xf32>) {
  %0 = kiln.transpose %x [0, 2, 1, 3] : tensor<1x128x12x64xf32> -> tensor<1x12x128x64xf32>
  %1 = kiln.transpose %y [2, 1, 0] : tensor<2x1x3xf32> -> tensor<3x1x2xf32>
  return %0, %1 : tensor<1x12x128x64xf32>, tensor<3x1x2xf32>
}

// -----

// A transpose of a reshape (or the reverse) is not merged.
// CHECK-LABEL: func.func @no_reshape_transpose_merge
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[R:.*]] = kiln.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<6x4xf32>
// CHECK: %[[T:.*]] = kiln.transpose %[[R]] [1, 0] : tensor<6x4xf32> -> tensor<4x6xf32>
// CHECK: %[[S:.*]] = kiln.reshape %[[T]] : tensor<4x6xf32> -> tensor<24xf32>
// CHECK: return %[[S]]
func.func @no_reshape_transpose_merge(%x: tensor<2x3x4xf32>) -> tensor<24xf32> {
  %0 = kiln.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
  %1 = kiln.transpose %0 [1, 0] : tensor<6x4xf32> -> tensor<4x6xf32>
  %2 = kiln.reshape %1 : tensor<4x6xf32> -> tensor<24xf32>
  return %2 : tensor<24xf32>
}
