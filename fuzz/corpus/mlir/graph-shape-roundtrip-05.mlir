func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>, %c: tensor<2x1xf32>,
                  %d: tensor<1xi64>)
    -> (tensor<2x9xf32>, tensor<4x3xf32>, tensor<1xi64>) {
  %0 = kiln.concat %a, %b, %c axis 1
      : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x1xf32>) -> tensor<2x9xf32>
  %1 = kiln.concat %a, %a axis -2
      : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %2 = kiln.concat %d axis 0 : (tensor<1xi64>) -> tensor<1xi64>
  return %0, %1, %2 : tensor<2x9xf32>, tensor<4x3xf32>, tensor<1xi64>
}
