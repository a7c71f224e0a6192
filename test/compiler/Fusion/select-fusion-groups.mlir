// kiln-select-fusion-groups: groups are numbered in walk order; those not
// kept return to the function as plain graph ops, in order.
// RUN: kiln-opt %s --kiln-form-fusion-groups --kiln-select-fusion-groups=keep=1 | FileCheck %s
// RUN: kiln-opt %s --kiln-form-fusion-groups --kiln-select-fusion-groups | FileCheck %s --check-prefix=ALL
// RUN: kiln-opt %s --kiln-form-fusion-groups "--kiln-select-fusion-groups=keep=0,1 test-miscompile=1" | FileCheck %s --check-prefix=BROKEN
// RUN: kiln-opt %s --kiln-form-fusion-groups "--kiln-select-fusion-groups=keep=0 test-miscompile=1" | FileCheck %s --check-prefix=DISSOLVED

// CHECK-LABEL: func.func @two_groups
// CHECK-NEXT: %[[A:.*]] = kiln.add
// CHECK-NEXT: %[[T:.*]] = kiln.tanh %[[A]]
// CHECK-NEXT: %[[G:.*]] = kiln.fusion ins(%[[T]], %arg1
// CHECK: kiln.matmul
// CHECK: kiln.relu
// CHECK: return %[[G]]
// ALL-COUNT-2: kiln.fusion
// A broken group yields its last op's operand: the ReLU is lost.
// BROKEN: kiln.fusion
// BROKEN: %[[M:.*]] = kiln.matmul
// BROKEN-NEXT: kiln.relu
// BROKEN-NEXT: kiln.yield %[[M]]
// Dissolved, the same group is the plain, correct program.
// DISSOLVED: %[[M:.*]] = kiln.matmul
// DISSOLVED-NEXT: %[[R:.*]] = kiln.relu %[[M]]
// DISSOLVED-NEXT: return %[[R]]
func.func @two_groups(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %a = kiln.add %x, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = kiln.tanh %a : tensor<4x8xf32>
  %m = kiln.matmul %b, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %r = kiln.relu %m : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
