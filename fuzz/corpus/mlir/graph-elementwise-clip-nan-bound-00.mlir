func.func @clip_nan_min(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kiln.clip %x min 0x7FF8000000000000 max 6.0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
