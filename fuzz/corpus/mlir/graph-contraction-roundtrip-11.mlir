func.func @conv2d_f64(%x: tensor<1x1x3x3xf64>, %b: tensor<1xf64>) -> tensor<1x1x1x1xf64> {
  %0 = kiln.conv2d %x, %x, %b : (tensor<1x1x3x3xf64>, tensor<1x1x3x3xf64>, tensor<1xf64>) -> tensor<1x1x1x1xf64>
  return %0 : tensor<1x1x1x1xf64>
}
