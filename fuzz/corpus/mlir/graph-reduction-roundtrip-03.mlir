func.func @reduce_prod(%x: tensor<3xi64>, %y: tensor<0x4xf32>)
    -> (tensor<i64>, tensor<1x4xf32>) {
  %0 = kiln.reduce_prod %x axes [0] : tensor<3xi64> -> tensor<i64>
  %1 = kiln.reduce_prod %y axes [0] keep_dims : tensor<0x4xf32> -> tensor<1x4xf32>
  return %0, %1 : tensor<i64>, tensor<1x4xf32>
}
