func.func @batch_norm_rank(%x: tensor<8xf32>, %p: tensor<8xf32>) {
  %0 = kiln.batch_norm %x, %p, %p, %p, %p epsilon 1.0e-05 : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return
}
