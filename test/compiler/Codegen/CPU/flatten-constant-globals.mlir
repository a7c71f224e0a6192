// RUN: kiln-opt %s --kiln-flatten-constant-globals | FileCheck %s
// RUN: kiln-opt %s --kiln-flatten-constant-globals=leave-from-bytes=16 | FileCheck %s --check-prefix=LEAVE

// A weight of nested arrays becomes its bytes as one i8 array, alignment
// kept; its address is taken as before.
// CHECK: llvm.mlir.global private constant @weight(dense<[0, 0, -128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, -128, 64]> : tensor<16xi8>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<16 x i8>
llvm.mlir.global private constant @weight(dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<2 x array<2 x f32>>

// With leave-from-bytes, globals that large keep their nested type: the
// CPU artifact writes their bytes itself (ConstantsObject.h). Smaller
// ones are still flattened.
// LEAVE: llvm.mlir.global private constant @weight(dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>) {{.*}} : !llvm.array<2 x array<2 x f32>>
// LEAVE: llvm.mlir.global private constant @small(dense<[1, 2, 3, 4]> : tensor<4xi8>) {{.*}} : !llvm.array<4 x i8>
llvm.mlir.global private constant @small(dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>) {addr_space = 0 : i32} : !llvm.array<2 x array<2 x i8>>

// A splat stays a splat, of the flat shape.
// LEAVE: llvm.mlir.global private constant @zeros(dense<0.000000e+00> : tensor<2x3xf32>) {{.*}} : !llvm.array<2 x array<3 x f32>>
// CHECK: llvm.mlir.global private constant @zeros(dense<0.000000e+00> : tensor<6xf32>) {addr_space = 0 : i32} : !llvm.array<6 x f32>
llvm.mlir.global private constant @zeros(dense<0.0> : tensor<2x3xf32>) {addr_space = 0 : i32} : !llvm.array<2 x array<3 x f32>>

// Already flat: unchanged.
// CHECK: llvm.mlir.global private constant @bias(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) {addr_space = 0 : i32} : !llvm.array<2 x f32>
llvm.mlir.global private constant @bias(dense<[1.0, 2.0]> : tensor<2xf32>) {addr_space = 0 : i32} : !llvm.array<2 x f32>

// Not constant: a kernel may write it, and its type is its layout.
// CHECK: llvm.mlir.global private @state(dense<0.000000e+00> : tensor<2x2xf32>) {addr_space = 0 : i32} : !llvm.array<2 x array<2 x f32>>
llvm.mlir.global private @state(dense<0.0> : tensor<2x2xf32>) {addr_space = 0 : i32} : !llvm.array<2 x array<2 x f32>>

// i1 has no whole bytes per element.
// CHECK: llvm.mlir.global private constant @mask(dense<{{\[\[}}true, false], [false, true]]> : tensor<2x2xi1>) {addr_space = 0 : i32} : !llvm.array<2 x array<2 x i1>>
llvm.mlir.global private constant @mask(dense<[[true, false], [false, true]]> : tensor<2x2xi1>) {addr_space = 0 : i32} : !llvm.array<2 x array<2 x i1>>

// Named by something other than an address-of (here another global's
// initialiser, whose meaning may depend on the type): left alone. Taking
// the address, even inside a global's body, does not count.
// CHECK: llvm.mlir.global private constant @read_in_place(dense<{{.*}}> : tensor<2x2xf32>) {addr_space = 0 : i32} : !llvm.array<2 x array<2 x f32>>
llvm.mlir.global private constant @read_in_place(dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>) {addr_space = 0 : i32} : !llvm.array<2 x array<2 x f32>>
llvm.mlir.global private constant @alias_of_it() {addr_space = 0 : i32} : !llvm.ptr {
  %0 = llvm.mlir.addressof @read_in_place : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}
llvm.mlir.global private constant @uses_symbol(@read_in_place) {addr_space = 0 : i32} : !llvm.ptr

// CHECK-LABEL: llvm.func @kernel
// CHECK: llvm.mlir.addressof @weight : !llvm.ptr
llvm.func @kernel() -> !llvm.ptr {
  %0 = llvm.mlir.addressof @weight : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}
