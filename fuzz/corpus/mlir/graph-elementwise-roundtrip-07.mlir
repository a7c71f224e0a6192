func.func @arith_f32_broadcast(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %s: tensor<f32>, %c: tensor<2x1xf32>) {
  %0 = kiln.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = kiln.sub %s, %a : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = kiln.mul %c, %b : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %3 = kiln.div %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = kiln.rem %a, %c : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %4 = kiln.pow %a, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %5 = kiln.min %a, %c : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %6 = kiln.max %s, %s : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return
}
