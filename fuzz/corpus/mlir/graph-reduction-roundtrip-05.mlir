func.func @argmax(%x: tensor<4x10xf32>, %y: tensor<2x3x4xi8>)
    -> (tensor<4xi64>, tensor<4x1xi64>, tensor<3x4xi64>, tensor<2x1x4xi64>) {
  %0 = kiln.argmax %x axis 1 : tensor<4x10xf32> -> tensor<4xi64>
  %1 = kiln.argmax %x axis -1 keep_dims : tensor<4x10xf32> -> tensor<4x1xi64>
  %2 = kiln.argmax %y axis 0 select_last_index : tensor<2x3x4xi8> -> tensor<3x4xi64>
  %3 = kiln.argmax %y axis -2 keep_dims select_last_index
      : tensor<2x3x4xi8> -> tensor<2x1x4xi64>
  return %0, %1, %2, %3 : tensor<4xi64>, tensor<4x1xi64>, tensor<3x4xi64>,
      tensor<2x1x4xi64>
}
