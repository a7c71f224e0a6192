func.func @select(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<f32>, %s: tensor<i1>,
                  %i: tensor<2x1xi32>, %p: tensor<2x4xi1>)
    -> (tensor<4xf32>, tensor<2x4xi32>, tensor<2x4xi1>) {
  %0 = kiln.select %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = kiln.select %c, %i, %i : (tensor<4xi1>, tensor<2x1xi32>, tensor<2x1xi32>) -> tensor<2x4xi32>
  %2 = kiln.select %s, %p, %c : (tensor<i1>, tensor<2x4xi1>, tensor<4xi1>) -> tensor<2x4xi1>
  return %0, %1, %2 : tensor<4xf32>, tensor<2x4xi32>, tensor<2x4xi1>
}
