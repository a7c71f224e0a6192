func.func @slice_wrong_result(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %0 = kiln.slice %x starts [0, 2] limits [4, 8] steps [1, 4] : tensor<4x8xf32> -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}
