// RUN: kiln-opt %s --kiln-cpu-int8-gemm-calls | FileCheck %s

// An int8 GEMM on buffers whose weights are a constant global becomes a
// call to the kernel library, with the weights packed into a new global
// (K 64 -> 64, N 48 -> 48: 48 x 64 bytes of panels + 48 int32 sums); other
// int8 GEMMs call the kernel that packs as it goes.

#lhs = affine_map<(m, n, k) -> (m, k)>
#rhs = affine_map<(m, n, k) -> (k, n)>
#out = affine_map<(m, n, k) -> (m, n)>

// CHECK-DAG: func.func private @kiln_int8_gemm(i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, i64, !llvm.ptr, i64)
// CHECK-DAG: func.func private @kiln_int8_gemm_batched(i64, i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, i64, !llvm.ptr, i64, i64)
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
// packed layout holds whole columns), go to the kernel that packs its
// right-hand side as it goes (one item: batch 1, batch strides 0).
// CHECK-LABEL: func.func @not_constant
// CHECK-NOT: linalg.generic
// CHECK: call @kiln_int8_gemm_batched(%c1_i64{{.*}}, %c4_i64{{.*}}, %c48_i64, %c64_i64, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c0_i64, %{{.*}}, %{{.*}}, %c0_i64)
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
// CHECK-NOT: linalg.generic
// CHECK: call @kiln_int8_gemm_batched(
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

// A convolution's form: shared weights [O, CKK] times each image's patches
// [CKK, P]; the batch strides come from the views.
#shared_lhs = affine_map<(b, m, n, k) -> (m, k)>
#batched_rhs = affine_map<(b, m, n, k) -> (b, k, n)>
#batched_out = affine_map<(b, m, n, k) -> (b, m, n)>
// CHECK-LABEL: func.func @shared_lhs
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}:3, %[[BSTRIDES:.*]]:3 = memref.extract_strided_metadata %arg1
// CHECK: %[[BATCHB:.*]] = arith.index_cast %[[BSTRIDES]]#0
// CHECK: %[[LDB:.*]] = arith.index_cast %[[BSTRIDES]]#1
// CHECK: call @kiln_int8_gemm_batched(%c3_i64{{.*}}, %c16_i64{{.*}}, %c49_i64{{.*}}, %c72_i64{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[LDB]], %[[BATCHB]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NOT: linalg.generic
func.func @shared_lhs(%w: memref<16x72xi8>, %patches: memref<3x72x49xi8>, %c: memref<3x16x49xi32>) {
  linalg.generic {indexing_maps = [#shared_lhs, #batched_rhs, #batched_out],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %patches : memref<16x72xi8>, memref<3x72x49xi8>)
      outs(%c : memref<3x16x49xi32>) {
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
