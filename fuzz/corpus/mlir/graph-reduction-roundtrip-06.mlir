func.func @argmin(%x: tensor<7xf16>, %y: tensor<5x2xi64>, %z: tensor<3x3xbf16>)
    -> (tensor<i64>, tensor<2xi64>, tensor<3x1xi64>) {
  %0 = kiln.argmin %x axis 0 : tensor<7xf16> -> tensor<i64>
  %1 = kiln.argmin %y axis -2 select_last_index : tensor<5x2xi64> -> tensor<2xi64>
  %2 = kiln.argmin %z axis 1 keep_dims : tensor<3x3xbf16> -> tensor<3x1xi64>
  return %0, %1, %2 : tensor<i64>, tensor<2xi64>, tensor<3x1xi64>
}
