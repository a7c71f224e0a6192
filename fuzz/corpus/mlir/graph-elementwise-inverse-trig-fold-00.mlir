func.func @fold() -> tensor<3xf32> {
  %c = kiln.constant dense<[0.0, 0.0, 1.0]> : tensor<3xf32>
  %a = kiln.acos %c : tensor<3xf32>
  %s = kiln.asin %c : tensor<3xf32>
  %t = kiln.atan %c : tensor<3xf32>
  %0 = kiln.slice %a starts [0] limits [1] steps [1] : tensor<3xf32> -> tensor<1xf32>
  %1 = kiln.slice %s starts [1] limits [2] steps [1] : tensor<3xf32> -> tensor<1xf32>
  %2 = kiln.slice %t starts [2] limits [3] steps [1] : tensor<3xf32> -> tensor<1xf32>
  %r = kiln.concat %0, %1, %2 axis 0 : (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
