func.func @clip_nan_max(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kiln.clip %x max 0x7FF8000000000000 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
