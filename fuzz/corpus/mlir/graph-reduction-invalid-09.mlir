func.func @argmin_axis_too_negative(%x: tensor<4x10xf32>) -> tensor<4xi64> {
  %0 = kiln.argmin %x axis -3 : tensor<4x10xf32> -> tensor<4xi64>
  return %0 : tensor<4xi64>
}
