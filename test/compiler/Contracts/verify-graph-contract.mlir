// RUN: kiln-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect --kiln-verify-graph-contract | FileCheck %s

// The graph contract (compiler/Contracts/Passes.td): only kiln, func and
// builtin ops; every value a statically shaped tensor of a supported element
// type; every function has a body. Modules that meet it pass through
// unchanged; every violation is reported at its op.

// A module that meets the contract: every supported element type, a fusion,
// a call, nothing changes (not even the foldable identity transpose).
// CHECK-LABEL: func.func @callee
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[T:.*]] = kiln.transpose %[[A]] [0, 1] : tensor<2x3xf32> -> tensor<2x3xf32>
// CHECK-NEXT: return %[[T]]
// CHECK-LABEL: func.func @valid
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[H:.*]]: tensor<4xf16>, %[[B:.*]]: tensor<4xbf16>, %[[D:.*]]: tensor<f64>, %[[M:.*]]: tensor<2x3xi1>, %[[I8:.*]]: tensor<1xi8>, %[[I16:.*]]: tensor<1xi16>, %[[I32:.*]]: tensor<1xi32>, %[[I64:.*]]: tensor<0x5xi64>)
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<[2, 3]> : tensor<2xi64>
// CHECK-NEXT: %[[R:.*]] = kiln.fusion ins(%[[X]] : tensor<2x3xf32>) -> tensor<3x2xf32> {
// CHECK-NEXT: ^bb0(%[[Y:.*]]: tensor<2x3xf32>):
// CHECK-NEXT:   %[[Z:.*]] = kiln.transpose %[[Y]] [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
// CHECK-NEXT:   kiln.yield %[[Z]] : tensor<3x2xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[K:.*]] = call @callee(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: return %[[R]], %[[C]], %[[K]]
func.func @callee(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %t = kiln.transpose %a [0, 1] : tensor<2x3xf32> -> tensor<2x3xf32>
  return %t : tensor<2x3xf32>
}

func.func @valid(%x: tensor<2x3xf32>, %h: tensor<4xf16>, %b: tensor<4xbf16>,
                 %d: tensor<f64>, %m: tensor<2x3xi1>, %i8: tensor<1xi8>,
                 %i16: tensor<1xi16>, %i32: tensor<1xi32>, %i64: tensor<0x5xi64>)
    -> (tensor<3x2xf32>, tensor<2xi64>, tensor<2x3xf32>) {
  %c = kiln.constant dense<[2, 3]> : tensor<2xi64>
  %r = kiln.fusion ins(%x : tensor<2x3xf32>) -> tensor<3x2xf32> {
  ^bb0(%y: tensor<2x3xf32>):
    %z = kiln.transpose %y [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
    kiln.yield %z : tensor<3x2xf32>
  }
  %k = func.call @callee(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r, %c, %k : tensor<3x2xf32>, tensor<2xi64>, tensor<2x3xf32>
}

// -----

// An op of another dialect (arith is not even loaded here).
func.func @non_kiln_op() -> tensor<2xf32> {
  // expected-error @+1 {{op 'arith.constant' is not allowed by the graph contract (only kiln and func ops inside the module)}}
  %0 = "arith.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Every violation is reported, not just the first.
func.func @two_non_kiln_ops(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{op 'test.a' is not allowed by the graph contract}}
  %0 = "test.a"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  // expected-error @+1 {{op 'test.b' is not allowed by the graph contract}}
  %1 = "test.b"(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}

// -----

// A non-kiln op nested in a func-level region is found too.
func.func @nested_non_kiln_op(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{op 'test.region' is not allowed by the graph contract}}
  "test.region"() ({
    // expected-error @+1 {{op 'test.inner' is not allowed by the graph contract}}
    "test.inner"() : () -> ()
  }) : () -> ()
  return %x : tensor<2xf32>
}

// -----

// A dynamic dimension in a function argument.
// expected-error @+1 {{block argument #0 has type 'tensor<?x3xf32>': the graph contract needs statically shaped tensors of a supported element type}}
func.func @dynamic_argument(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  return %x : tensor<?x3xf32>
}

// -----

// A dynamic dimension in an op result (of an allowed op); the external
// declaration it calls is reported as well.
// expected-error @+1 {{function 'dynamic_callee' has no body}}
func.func private @dynamic_callee(tensor<2xf32>) -> tensor<?xf32>

func.func @dynamic_result(%x: tensor<2xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<?xf32>': the graph contract needs statically shaped tensors}}
  %0 = func.call @dynamic_callee(%x) : (tensor<2xf32>) -> tensor<?xf32>
  return
}

// -----

// An unranked tensor.
// expected-error @+1 {{block argument #0 has type 'tensor<*xf32>'}}
func.func @unranked_argument(%x: tensor<*xf32>) {
  return
}

// -----

// f8 is not a supported element type.
// expected-error @+1 {{block argument #0 has type 'tensor<2xf8E4M3FN>': the graph contract needs statically shaped tensors of a supported element type}}
func.func @f8_argument(%x: tensor<2xf8E4M3FN>) {
  return
}

// -----

// Signed-typed and 4-bit integers and index are not supported element
// types either (unsigned ones are: kiln-lower-unsigned ends them).
// expected-error @+3 {{block argument #0 has type 'tensor<2xsi8>'}}
// expected-error @+2 {{block argument #1 has type 'tensor<2xindex>'}}
// expected-error @+1 {{block argument #2 has type 'tensor<2xi4>'}}
func.func @signed_index_i4(%x: tensor<2xsi8>, %y: tensor<2xindex>, %z: tensor<2xi4>) {
  return
}

// -----

// Values must be tensors: a scalar and a memref are reported one by one.
// expected-error @+2 {{block argument #0 has type 'f32'}}
// expected-error @+1 {{block argument #1 has type 'memref<2xf32>'}}
func.func @non_tensor_arguments(%x: f32, %y: memref<2xf32>) {
  return
}

// -----

// A non-tensor result of a non-kiln op is reported as the op (once).
func.func @non_tensor_result() {
  // expected-error @+1 {{op 'test.scalar' is not allowed by the graph contract}}
  %0 = "test.scalar"() : () -> f32
  return
}

// -----

// An external function declaration.
// expected-error @+1 {{function 'external' has no body}}
func.func private @external(tensor<2xf32>) -> tensor<2xf32>
