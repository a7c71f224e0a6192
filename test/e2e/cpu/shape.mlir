// End-to-end tests of the data-movement ops (GraphShapeOps.td), constants
// and fusion regions (GraphStructureOps.td) on the CPU path; references in
// shape_cases.py.
//
// RUN: /usr/bin/python3 %S/../lib/check_e2e.py --kilnc kilnc --model %s --cases %S/shape_cases.py --workdir %t | FileCheck %s
//
// CHECK-NOT: FAIL
// CHECK: SUMMARY: {{[1-9][0-9]*}} passed, 0 failed

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

func.func @reshape(%x: tensor<2x3x4xf32>, %b: tensor<4xi1>, %l: tensor<6xi64>)
    -> (tensor<6x4xf32>, tensor<24xf32>, tensor<4x1x3x2xf32>, tensor<2x2xi1>, tensor<3x1x2xi64>) {
  %0 = kiln.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
  %1 = kiln.reshape %x : tensor<2x3x4xf32> -> tensor<24xf32>
  %2 = kiln.reshape %x : tensor<2x3x4xf32> -> tensor<4x1x3x2xf32>
  %3 = kiln.reshape %b : tensor<4xi1> -> tensor<2x2xi1>
  %4 = kiln.reshape %l : tensor<6xi64> -> tensor<3x1x2xi64>
  return %0, %1, %2, %3, %4 : tensor<6x4xf32>, tensor<24xf32>, tensor<4x1x3x2xf32>, tensor<2x2xi1>, tensor<3x1x2xi64>
}

func.func @reshape_rank0(%x: tensor<f32>, %y: tensor<1x1xi32>)
    -> (tensor<1x1xf32>, tensor<f32>, tensor<i32>, tensor<1xi32>) {
  %0 = kiln.reshape %x : tensor<f32> -> tensor<1x1xf32>
  %1 = kiln.reshape %0 : tensor<1x1xf32> -> tensor<f32>
  %2 = kiln.reshape %y : tensor<1x1xi32> -> tensor<i32>
  %3 = kiln.reshape %2 : tensor<i32> -> tensor<1xi32>
  return %0, %1, %2, %3 : tensor<1x1xf32>, tensor<f32>, tensor<i32>, tensor<1xi32>
}

// A reshape of a transposed tensor reads the transposed (logical) order.
func.func @reshape_after_transpose(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %t = kiln.transpose %x [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  %0 = kiln.reshape %t : tensor<4x2x3xf32> -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

//===----------------------------------------------------------------------===//
// transpose / broadcast
//===----------------------------------------------------------------------===//

func.func @transpose(%x: tensor<2x3x4x5xf32>, %y: tensor<2x3xi8>, %s: tensor<i32>, %b: tensor<2x1x3xi1>)
    -> (tensor<2x4x3x5xf32>, tensor<5x3x4x2xf32>, tensor<3x4x5x2xf32>, tensor<3x2xi8>, tensor<i32>, tensor<3x2x1xi1>) {
  %0 = kiln.transpose %x [0, 2, 1, 3] : tensor<2x3x4x5xf32> -> tensor<2x4x3x5xf32>
  %1 = kiln.transpose %x [3, 1, 2, 0] : tensor<2x3x4x5xf32> -> tensor<5x3x4x2xf32>
  %2 = kiln.transpose %x [1, 2, 3, 0] : tensor<2x3x4x5xf32> -> tensor<3x4x5x2xf32>
  %3 = kiln.transpose %y [1, 0] : tensor<2x3xi8> -> tensor<3x2xi8>
  %4 = kiln.transpose %s [] : tensor<i32> -> tensor<i32>
  %5 = kiln.transpose %b [2, 0, 1] : tensor<2x1x3xi1> -> tensor<3x2x1xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<2x4x3x5xf32>, tensor<5x3x4x2xf32>, tensor<3x4x5x2xf32>, tensor<3x2xi8>, tensor<i32>, tensor<3x2x1xi1>
}

// Chains the clean-up pipeline rewrites: transpose(transpose) composes, a
// transpose that only moves unit dimensions becomes a reshape, and
// reshape(reshape) collapses.
func.func @canonicalized_chains(%x: tensor<2x3x4xf32>, %y: tensor<1x5x1x2xf32>)
    -> (tensor<3x2x4xf32>, tensor<5x1x2x1xf32>, tensor<4x6xf32>, tensor<2x3x4xf32>) {
  %t1 = kiln.transpose %x [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %0 = kiln.transpose %t1 [0, 2, 1] : tensor<3x4x2xf32> -> tensor<3x2x4xf32>
  %1 = kiln.transpose %y [1, 2, 3, 0] : tensor<1x5x1x2xf32> -> tensor<5x1x2x1xf32>
  %r1 = kiln.reshape %x : tensor<2x3x4xf32> -> tensor<24xf32>
  %2 = kiln.reshape %r1 : tensor<24xf32> -> tensor<4x6xf32>
  %t2 = kiln.transpose %x [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  %3 = kiln.transpose %t2 [1, 2, 0] : tensor<4x2x3xf32> -> tensor<2x3x4xf32>
  return %0, %1, %2, %3 : tensor<3x2x4xf32>, tensor<5x1x2x1xf32>, tensor<4x6xf32>, tensor<2x3x4xf32>
}

func.func @broadcast(%s: tensor<f32>, %x: tensor<3x1xi1>, %r: tensor<1x4xf16>, %c: tensor<3x1xi64>)
    -> (tensor<2x3x4xf32>, tensor<2x3x4xi1>, tensor<3x4xf16>, tensor<2x3x5xi64>, tensor<3x1xi64>) {
  %0 = kiln.broadcast %s : tensor<f32> -> tensor<2x3x4xf32>
  %1 = kiln.broadcast %x : tensor<3x1xi1> -> tensor<2x3x4xi1>
  %2 = kiln.broadcast %r : tensor<1x4xf16> -> tensor<3x4xf16>
  %3 = kiln.broadcast %c : tensor<3x1xi64> -> tensor<2x3x5xi64>
  %4 = kiln.broadcast %c : tensor<3x1xi64> -> tensor<3x1xi64>
  return %0, %1, %2, %3, %4 : tensor<2x3x4xf32>, tensor<2x3x4xi1>, tensor<3x4xf16>, tensor<2x3x5xi64>, tensor<3x1xi64>
}

//===----------------------------------------------------------------------===//
// concat / split / slice
//
// Concatenating along an inner axis, and splits or slices returned without a
// consumer, hit a missing `memrefCopy` symbol in the JIT: those cases are in
// pending-strided-copy.mlir.
//===----------------------------------------------------------------------===//

func.func @concat_axis0(%a: tensor<2x3xf32>, %d: tensor<1xi64>, %e: tensor<2x2x3xi1>, %f: tensor<1x2x3xi1>,
                        %g: tensor<2x3x4xi32>, %h: tensor<1x3x4xi32>)
    -> (tensor<4x3xf32>, tensor<1xi64>, tensor<3x2x3xi1>, tensor<4x3x4xi32>) {
  %0 = kiln.concat %a, %a axis -2 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %1 = kiln.concat %d axis 0 : (tensor<1xi64>) -> tensor<1xi64>
  %2 = kiln.concat %e, %f axis 0 : (tensor<2x2x3xi1>, tensor<1x2x3xi1>) -> tensor<3x2x3xi1>
  %3 = kiln.concat %h, %g, %h axis 0 : (tensor<1x3x4xi32>, tensor<2x3x4xi32>, tensor<1x3x4xi32>) -> tensor<4x3x4xi32>
  return %0, %1, %2, %3 : tensor<4x3xf32>, tensor<1xi64>, tensor<3x2x3xi1>, tensor<4x3x4xi32>
}

// Splits along the leading axis (or behind leading 1s), one with a zero-sized
// piece.
func.func @split_axis0(%x: tensor<1x4x12xf32>, %y: tensor<6x2xi32>)
    -> (tensor<1x2xi32>, tensor<0x2xi32>, tensor<5x2xi32>, tensor<6x2xi32>, tensor<1x1x12xf32>, tensor<1x3x12xf32>) {
  %a, %b, %c = kiln.split %y axis 0 : tensor<6x2xi32> -> tensor<1x2xi32>, tensor<0x2xi32>, tensor<5x2xi32>
  %u = kiln.split %y axis 1 : tensor<6x2xi32> -> tensor<6x2xi32>
  %s, %t = kiln.split %x axis -2 : tensor<1x4x12xf32> -> tensor<1x1x12xf32>, tensor<1x3x12xf32>
  return %a, %b, %c, %u, %s, %t : tensor<1x2xi32>, tensor<0x2xi32>, tensor<5x2xi32>, tensor<6x2xi32>, tensor<1x1x12xf32>, tensor<1x3x12xf32>
}

// Inner-axis splits whose pieces feed further ops.
func.func @split_inner_consumed(%x: tensor<2x12xf32>) -> tensor<2x4xf32> {
  %q, %k, %v = kiln.split %x axis 1 : tensor<2x12xf32> -> tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
  %0 = kiln.mul %q, %k : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %1 = kiln.sub %0, %v : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
}

func.func @slice(%x: tensor<4x8xf32>, %y: tensor<5xi8>)
    -> (tensor<4x3xf32>, tensor<0xi8>, tensor<2x8xf32>, tensor<5xi8>, tensor<1x1xf32>) {
  // Reversal of dimension 0, every third element of dimension 1 backwards.
  %1 = kiln.slice %x starts [3, 7] limits [-1, 0] steps [-1, -3] : tensor<4x8xf32> -> tensor<4x3xf32>
  %2 = kiln.slice %y starts [2] limits [2] steps [1] : tensor<5xi8> -> tensor<0xi8>
  %3 = kiln.slice %x starts [1, 0] limits [3, 8] steps [1, 1] : tensor<4x8xf32> -> tensor<2x8xf32>
  %4 = kiln.slice %y starts [4] limits [-1] steps [-1] : tensor<5xi8> -> tensor<5xi8>
  // A step larger than the dimension.
  %5 = kiln.slice %x starts [2, 5] limits [4, 8] steps [10, 7] : tensor<4x8xf32> -> tensor<1x1xf32>
  return %1, %2, %3, %4, %5 : tensor<4x3xf32>, tensor<0xi8>, tensor<2x8xf32>, tensor<5xi8>, tensor<1x1xf32>
}

func.func @slice_3d_negative(%x: tensor<3x4x5xf32>, %b: tensor<6xi1>) -> (tensor<2x2x3xf32>, tensor<3xi1>) {
  %0 = kiln.slice %x starts [2, 3, 4] limits [0, -1, 0] steps [-1, -2, -2] : tensor<3x4x5xf32> -> tensor<2x2x2xf32>
  %1 = kiln.slice %b starts [5] limits [0] steps [-2] : tensor<6xi1> -> tensor<3xi1>
  %p = kiln.pad %0 low [0, 0, 0] high [0, 0, 1] constant 9.0 : tensor<2x2x2xf32> -> tensor<2x2x3xf32>
  return %p, %1 : tensor<2x2x3xf32>, tensor<3xi1>
}

// Positive-step slices of inner dimensions feeding further ops.
func.func @slice_strided_consumed(%x: tensor<4x8xf32>, %y: tensor<3x4x5xf32>) -> (tensor<4x3xf32>, tensor<3x2x2xf32>) {
  %0 = kiln.slice %x starts [0, 2] limits [4, 8] steps [1, 2] : tensor<4x8xf32> -> tensor<4x3xf32>
  %1 = kiln.neg %0 : tensor<4x3xf32>
  %2 = kiln.slice %y starts [0, 1, 1] limits [3, 4, 5] steps [1, 2, 2] : tensor<3x4x5xf32> -> tensor<3x2x2xf32>
  %3 = kiln.exp %2 : tensor<3x2x2xf32>
  return %1, %3 : tensor<4x3xf32>, tensor<3x2x2xf32>
}

//===----------------------------------------------------------------------===//
// gather
//===----------------------------------------------------------------------===//

// Embedding lookup (axis 0, 2-D i64 indices).
func.func @gather_embedding(%table: tensor<10x4xf32>, %ids: tensor<2x3xi64>) -> tensor<2x3x4xf32> {
  %0 = kiln.gather %table[%ids] axis 0 : (tensor<10x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// Negative indices count from the end; i32 indices; rank-0 index.
func.func @gather_axes(%x: tensor<2x3x4xf32>, %j: tensor<5xi32>, %k: tensor<i64>, %m: tensor<2x2xi32>)
    -> (tensor<2x3x5xf32>, tensor<2x4xf32>, tensor<2x2x2x4xf32>, tensor<2x3x2x2xf32>) {
  %0 = kiln.gather %x[%j] axis -1 : (tensor<2x3x4xf32>, tensor<5xi32>) -> tensor<2x3x5xf32>
  %1 = kiln.gather %x[%k] axis 1 : (tensor<2x3x4xf32>, tensor<i64>) -> tensor<2x4xf32>
  %2 = kiln.gather %x[%m] axis 1 : (tensor<2x3x4xf32>, tensor<2x2xi32>) -> tensor<2x2x2x4xf32>
  %3 = kiln.gather %x[%m] axis 2 : (tensor<2x3x4xf32>, tensor<2x2xi32>) -> tensor<2x3x2x2xf32>
  return %0, %1, %2, %3 : tensor<2x3x5xf32>, tensor<2x4xf32>, tensor<2x2x2x4xf32>, tensor<2x3x2x2xf32>
}

func.func @gather_types(%b: tensor<4xi1>, %i: tensor<2x2xi32>, %l: tensor<3x2xi64>, %n: tensor<3xi64>, %h: tensor<5xf16>)
    -> (tensor<2x2xi1>, tensor<3x3xi64>, tensor<3xf16>) {
  %0 = kiln.gather %b[%i] axis 0 : (tensor<4xi1>, tensor<2x2xi32>) -> tensor<2x2xi1>
  %1 = kiln.gather %l[%n] axis 0 : (tensor<3x2xi64>, tensor<3xi64>) -> tensor<3x2xi64>
  %2 = kiln.transpose %1 [1, 0] : tensor<3x2xi64> -> tensor<2x3xi64>
  %nr = kiln.reshape %n : tensor<3xi64> -> tensor<1x3xi64>
  %3 = kiln.concat %2, %nr axis 0 : (tensor<2x3xi64>, tensor<1x3xi64>) -> tensor<3x3xi64>
  %4 = kiln.gather %h[%n] axis 0 : (tensor<5xf16>, tensor<3xi64>) -> tensor<3xf16>
  return %0, %3, %4 : tensor<2x2xi1>, tensor<3x3xi64>, tensor<3xf16>
}

// Out-of-range indices are clamped into range at run time.
func.func @gather_clamp(%x: tensor<4x3xf32>, %i: tensor<4xi64>) -> tensor<4x3xf32> {
  %0 = kiln.gather %x[%i] axis 0 : (tensor<4x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

//===----------------------------------------------------------------------===//
// pad
//===----------------------------------------------------------------------===//

func.func @pad_constant(%x: tensor<1x2x3x3xf32>, %y: tensor<3x5xi32>, %h: tensor<2xf16>)
    -> (tensor<1x2x5x5xf32>, tensor<4x7xi32>, tensor<5xf16>, tensor<2x2x4x3xf32>) {
  %0 = kiln.pad %x low [0, 0, 1, 1] high [0, 0, 1, 1] constant 0.0 : tensor<1x2x3x3xf32> -> tensor<1x2x5x5xf32>
  %1 = kiln.pad %y low [0, 2] high [1, 0] constant -1.0 : tensor<3x5xi32> -> tensor<4x7xi32>
  %2 = kiln.pad %h low [1] high [2] constant 2.5 : tensor<2xf16> -> tensor<5xf16>
  %3 = kiln.pad %x low [1, 0, 0, 0] high [0, 0, 1, 0] constant -1.5 : tensor<1x2x3x3xf32> -> tensor<2x2x4x3xf32>
  return %0, %1, %2, %3 : tensor<1x2x5x5xf32>, tensor<4x7xi32>, tensor<5xf16>, tensor<2x2x4x3xf32>
}

// Reflect pads up to size - 1 without repeating the edge.
func.func @pad_reflect(%x: tensor<1x2x4x4xf32>, %v: tensor<5xi64>)
    -> (tensor<1x2x7x7xf32>, tensor<1x2x6x6xf32>, tensor<11xi64>) {
  %0 = kiln.pad %x low [0, 0, 3, 0] high [0, 0, 0, 3] reflect 0.0 : tensor<1x2x4x4xf32> -> tensor<1x2x7x7xf32>
  %1 = kiln.pad %x low [0, 0, 1, 2] high [0, 0, 1, 0] reflect 0.0 : tensor<1x2x4x4xf32> -> tensor<1x2x6x6xf32>
  %2 = kiln.pad %v low [4] high [2] reflect 0.0 : tensor<5xi64> -> tensor<11xi64>
  return %0, %1, %2 : tensor<1x2x7x7xf32>, tensor<1x2x6x6xf32>, tensor<11xi64>
}

// Edge repeats the border element; pads may exceed the dimension.
func.func @pad_edge(%y: tensor<3x5xi32>, %b: tensor<1x2xi1>, %x: tensor<2x3xf32>)
    -> (tensor<8x12xi32>, tensor<2x2xi1>, tensor<6x5xf32>) {
  %0 = kiln.pad %y low [5, 0] high [0, 7] edge 0.0 : tensor<3x5xi32> -> tensor<8x12xi32>
  %1 = kiln.pad %b low [1, 0] high [0, 0] edge 0.0 : tensor<1x2xi1> -> tensor<2x2xi1>
  %2 = kiln.pad %x low [1, 1] high [3, 1] edge 0.0 : tensor<2x3xf32> -> tensor<6x5xf32>
  return %0, %1, %2 : tensor<8x12xi32>, tensor<2x2xi1>, tensor<6x5xf32>
}

//===----------------------------------------------------------------------===//
// constant and fusion
//===----------------------------------------------------------------------===//

func.func @constants()
    -> (tensor<2xf32>, tensor<2x3xf16>, tensor<3xi1>, tensor<2x2xi1>,
        tensor<3xi64>, tensor<i8>, tensor<3xi32>, tensor<0x4xf32>, tensor<2xf64>) {
  %0 = kiln.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = kiln.constant dense<0.5> : tensor<2x3xf16>
  %2 = kiln.constant dense<[true, false, true]> : tensor<3xi1>
  %3 = kiln.constant dense<true> : tensor<2x2xi1>
  %4 = kiln.constant dense<[1, 128, -1]> : tensor<3xi64>
  %5 = kiln.constant dense<-7> : tensor<i8>
  %6 = kiln.constant dense<[0, 2147483647, -2147483648]> : tensor<3xi32>
  %7 = kiln.constant dense<> : tensor<0x4xf32>
  %8 = kiln.constant dense<[0.1, -2.5e300]> : tensor<2xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8
      : tensor<2xf32>, tensor<2x3xf16>, tensor<3xi1>, tensor<2x2xi1>,
        tensor<3xi64>, tensor<i8>, tensor<3xi32>, tensor<0x4xf32>, tensor<2xf64>
}

// Constants combined with inputs (so nothing folds), and a resource blob.
func.func @constants_with_inputs(%x: tensor<2x3xf32>, %i: tensor<3xi32>) -> (tensor<2x3xf32>, tensor<3xi32>, tensor<2xf32>) {
  %c = kiln.constant dense<[[1.0, -2.0, 3.0], [0.5, 0.25, -0.125]]> : tensor<2x3xf32>
  %0 = kiln.mul %x, %c : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %k = kiln.constant dense<[10, -20, 30]> : tensor<3xi32>
  %1 = kiln.add %i, %k : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  %2 = kiln.constant dense_resource<weights> : tensor<2xf32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<3xi32>, tensor<2xf32>
}

func.func @fusion_many(%x: tensor<2x6xf32>, %i: tensor<3xi32>, %m: tensor<2x6xi1>)
    -> (tensor<2x3xf32>, tensor<3xf32>, tensor<2x6xi1>) {
  %r:3 = kiln.fusion ins(%x, %i, %m : tensor<2x6xf32>, tensor<3xi32>, tensor<2x6xi1>)
      attributes {kind = "shape+reduce"}
      -> tensor<2x3xf32>, tensor<3xf32>, tensor<2x6xi1> {
  ^bb0(%a: tensor<2x6xf32>, %j: tensor<3xi32>, %n: tensor<2x6xi1>):
    %p:2 = kiln.split %a axis 1 : tensor<2x6xf32> -> tensor<2x3xf32>, tensor<2x3xf32>
    %g = kiln.gather %p#1[%j] axis -1 : (tensor<2x3xf32>, tensor<3xi32>) -> tensor<2x3xf32>
    %s = kiln.reduce_sum %g axes [0] : tensor<2x3xf32> -> tensor<3xf32>
    kiln.yield %g, %s, %n : tensor<2x3xf32>, tensor<3xf32>, tensor<2x6xi1>
  }
  return %r#0, %r#1, %r#2 : tensor<2x3xf32>, tensor<3xf32>, tensor<2x6xi1>
}

// Fusions in sequence, one without inputs, one passing inputs through.
func.func @fusion_chain(%x: tensor<4xf32>, %y: tensor<i8>) -> (tensor<4xf32>, tensor<i8>, tensor<2xi64>) {
  %c = kiln.fusion -> tensor<2xi64> {
    %k = kiln.constant dense<[3, 4]> : tensor<2xi64>
    kiln.yield %k : tensor<2xi64>
  }
  %a = kiln.fusion ins(%x : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%v: tensor<4xf32>):
    %e = kiln.exp %v : tensor<4xf32>
    kiln.yield %e : tensor<4xf32>
  }
  %b:2 = kiln.fusion ins(%a, %y : tensor<4xf32>, tensor<i8>) -> tensor<4xf32>, tensor<i8> {
  ^bb0(%v: tensor<4xf32>, %w: tensor<i8>):
    %n = kiln.neg %v : tensor<4xf32>
    kiln.yield %n, %w : tensor<4xf32>, tensor<i8>
  }
  return %b#0, %b#1, %c : tensor<4xf32>, tensor<i8>, tensor<2xi64>
}

// Shape ops on constants fold in the clean-up pipeline.
func.func @folded_shape_ops()
    -> (tensor<3x2xi32>, tensor<2x5xi32>, tensor<2x1xi32>, tensor<2x2xi32>, tensor<2xi32>, tensor<2x4xi32>) {
  %c = kiln.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0 = kiln.transpose %c [1, 0] : tensor<2x3xi32> -> tensor<3x2xi32>
  %1 = kiln.pad %c low [0, 1] high [0, 1] edge 0.0 : tensor<2x3xi32> -> tensor<2x5xi32>
  %2 = kiln.slice %c starts [1, 2] limits [-1, 1] steps [-1, -1] : tensor<2x3xi32> -> tensor<2x1xi32>
  %ids = kiln.constant dense<[-1, 0]> : tensor<2xi64>
  %3 = kiln.gather %c[%ids] axis 1 : (tensor<2x3xi32>, tensor<2xi64>) -> tensor<2x2xi32>
  %s:2 = kiln.split %c axis 1 : tensor<2x3xi32> -> tensor<2x1xi32>, tensor<2x2xi32>
  %4 = kiln.reshape %s#0 : tensor<2x1xi32> -> tensor<2xi32>
  %5 = kiln.concat %s#1, %3 axis 1 : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x4xi32>
  return %0, %1, %2, %3, %4, %5 : tensor<3x2xi32>, tensor<2x5xi32>, tensor<2x1xi32>, tensor<2x2xi32>, tensor<2xi32>, tensor<2x4xi32>
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040"
    }
  }
#-}
