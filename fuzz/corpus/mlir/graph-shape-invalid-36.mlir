func.func @slice_negative_start(%x: tensor<4x8xf32>) -> tensor<1x8xf32> {
  %0 = kiln.slice %x starts [-1, 0] limits [4, 8] steps [1, 1] : tensor<4x8xf32> -> tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}
