// kiln-fuse-group-loops needs lowered bodies.
// RUN: kiln-opt %s --kiln-fuse-group-loops --verify-diagnostics

func.func @unlowered(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kiln.fusion ins(%x : tensor<4xf32>) attributes {kind = "elementwise"} -> tensor<4xf32> {
  ^bb0(%a0: tensor<4xf32>):
    // expected-error @below {{a fusion group's body must be lowered to loops (kiln-convert-graph-to-linalg) before its loops are fused}}
    %1 = kiln.exp %a0 : tensor<4xf32>
    %2 = kiln.neg %1 : tensor<4xf32>
    kiln.yield %2 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
