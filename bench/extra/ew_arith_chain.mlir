// An arithmetic-only elementwise chain (8 ops over 4M floats, no libm calls):
// fusion A/B without the transcendental functions that dominate ew_chain.
//   build/bin/kilnc bench bench/extra/ew_arith_chain.mlir [--fusion=none]
func.func @main(%x: tensor<4194304xf32>, %y: tensor<4194304xf32>) -> tensor<4194304xf32> {
  %c = kiln.constant dense<0.5> : tensor<f32>
  %0 = kiln.add %x, %y : (tensor<4194304xf32>, tensor<4194304xf32>) -> tensor<4194304xf32>
  %1 = kiln.mul %0, %c : (tensor<4194304xf32>, tensor<f32>) -> tensor<4194304xf32>
  %2 = kiln.relu %1 : tensor<4194304xf32>
  %3 = kiln.sub %2, %y : (tensor<4194304xf32>, tensor<4194304xf32>) -> tensor<4194304xf32>
  %4 = kiln.mul %3, %3 : (tensor<4194304xf32>, tensor<4194304xf32>) -> tensor<4194304xf32>
  %5 = kiln.add %4, %c : (tensor<4194304xf32>, tensor<f32>) -> tensor<4194304xf32>
  %6 = kiln.sqrt %5 : tensor<4194304xf32>
  %7 = kiln.neg %6 : tensor<4194304xf32>
  return %7 : tensor<4194304xf32>
}
