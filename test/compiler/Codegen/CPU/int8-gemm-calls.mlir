// RUN: kiln-opt %s --kiln-cpu-int8-gemm-calls | FileCheck %s

// An int8 GEMM on buffers whose weights are a constant global becomes a
// call to the kernel library, with the weights packed into a new global
// (K 64 -> 64, N 48 -> 48: 48 x 64 bytes of panels + 48 int32 sums).

#lhs = affine_map<(m, n, k) -> (m, k)>
#rhs = affine_map<(m, n, k) -> (k, n)>
#out = affine_map<(m, n, k) -> (m, n)>

// CHECK: func.func private @kiln_int8_gemm(i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, i64, !llvm.ptr, i64)
// CHECK: memref.global "private" constant @weights_int8_packed : memref<3264xi8> = dense<{{.*}}> {alignment = 64 : i64}
memref.global "private" constant @weights : memref<64x48xi8> = dense<3>

// CHECK-LABEL: func.func @whole
func.func @whole(%a: memref<32x64xi8>, %c: memref<32x48xi32>) {
  %w = memref.get_global @weights : memref<64x48xi8>
  // CHECK: %[[PACKED:.*]] = memref.get_global @weights_int8_packed
  // CHECK: %[[INTPTR:.*]] = memref.extract_aligned_pointer_as_index %[[PACKED]]
  // CHECK: %[[ADDRESS:.*]] = arith.index_cast %[[INTPTR]]
  // CHECK: %[[POINTER:.*]] = llvm.inttoptr %[[ADDRESS]]
  // CHECK: call @kiln_int8_gemm(%c32_i64, %c48_i64, %c64_i64, %{{.*}}, %{{.*}}, %[[POINTER]], %c48_i64{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
  // CHECK-NOT: linalg.generic
  linalg.generic {indexing_maps = [#lhs, #rhs, #out],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<32x64xi8>, memref<64x48xi8>)
      outs(%c : memref<32x48xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %0 = arith.extsi %x : i8 to i32
    %1 = arith.extsi %y : i8 to i32
    %2 = arith.muli %0, %1 : i32
    %3 = arith.addi %acc, %2 : i32
    linalg.yield %3 : i32
  }
  return
}

// A workgroup's slice of the columns: the same packed weights, the slice's
// offset (its first column) passed on.
// CHECK-LABEL: func.func @slice
func.func @slice(%a: memref<8x64xi8>, %c: memref<8x16xi32, strided<[48, 1], offset: 16>>) {
  %w = memref.get_global @weights : memref<64x48xi8>
  %s = memref.subview %w[0, 16] [64, 16] [1, 1]
      : memref<64x48xi8> to memref<64x16xi8, strided<[48, 1], offset: 16>>
  // CHECK: %{{.*}}, %[[OFFSET:.*]], %{{.*}}:2, %{{.*}}:2 = memref.extract_strided_metadata %subview
  // CHECK-NEXT: %[[N0:.*]] = arith.index_cast %[[OFFSET]] : index to i64
  // CHECK: memref.get_global @weights_int8_packed
  // CHECK: call @kiln_int8_gemm({{.*}}, %[[N0]], {{.*}})
  linalg.generic {indexing_maps = [#lhs, #rhs, #out],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %s : memref<8x64xi8>, memref<64x16xi8, strided<[48, 1], offset: 16>>)
      outs(%c : memref<8x16xi32, strided<[48, 1], offset: 16>>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %0 = arith.extsi %x : i8 to i32
    %1 = arith.extsi %y : i8 to i32
    %2 = arith.muli %0, %1 : i32
    %3 = arith.addi %acc, %2 : i32
    linalg.yield %3 : i32
  }
  return
}

// Weights that are not a constant, and a slice of the weights' rows (the
// packed layout holds whole columns), keep the generated loops.
// CHECK-LABEL: func.func @not_constant
// CHECK: linalg.generic
// CHECK-NOT: call
func.func @not_constant(%a: memref<4x64xi8>, %w: memref<64x48xi8>, %c: memref<4x48xi32>) {
  linalg.generic {indexing_maps = [#lhs, #rhs, #out],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<4x64xi8>, memref<64x48xi8>)
      outs(%c : memref<4x48xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %0 = arith.extsi %x : i8 to i32
    %1 = arith.extsi %y : i8 to i32
    %2 = arith.muli %0, %1 : i32
    %3 = arith.addi %acc, %2 : i32
    linalg.yield %3 : i32
  }
  return
}

// CHECK-LABEL: func.func @some_rows
// CHECK: linalg.generic
// CHECK-NOT: call
func.func @some_rows(%a: memref<4x32xi8>, %c: memref<4x48xi32>) {
  %w = memref.get_global @weights : memref<64x48xi8>
  %s = memref.subview %w[0, 0] [32, 48] [1, 1]
      : memref<64x48xi8> to memref<32x48xi8, strided<[48, 1]>>
  linalg.generic {indexing_maps = [#lhs, #rhs, #out],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %s : memref<4x32xi8>, memref<32x48xi8, strided<[48, 1]>>)
      outs(%c : memref<4x48xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %0 = arith.extsi %x : i8 to i32
    %1 = arith.extsi %y : i8 to i32
    %2 = arith.muli %0, %1 : i32
    %3 = arith.addi %acc, %2 : i32
    linalg.yield %3 : i32
  }
  return
}

// An i32 product of i32 operands (not int8) is not this kernel's.
// CHECK-LABEL: func.func @int32
// CHECK: linalg.generic
// CHECK-NOT: call
func.func @int32(%a: memref<4x8xi32>, %w: memref<8x4xi32>, %c: memref<4x4xi32>) {
  linalg.generic {indexing_maps = [#lhs, #rhs, #out],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<4x8xi32>, memref<8x4xi32>)
      outs(%c : memref<4x4xi32>) {
  ^bb0(%x: i32, %y: i32, %acc: i32):
    %2 = arith.muli %x, %y : i32
    %3 = arith.addi %acc, %2 : i32
    linalg.yield %3 : i32
  }
  return
}
