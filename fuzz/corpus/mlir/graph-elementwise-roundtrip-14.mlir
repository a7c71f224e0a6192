func.func @inverse_trig(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kiln.acos %x : tensor<4xf32>
  %1 = kiln.asin %0 : tensor<4xf32>
  %2 = kiln.atan %1 : tensor<4xf32>
  %3 = kiln.acosh %2 : tensor<4xf32>
  %4 = kiln.asinh %3 : tensor<4xf32>
  %5 = kiln.atanh %4 : tensor<4xf32>
  return %5 : tensor<4xf32>
}
