func.func @batch_norm_integer(%x: tensor<1x4x2x2xi8>, %p: tensor<4xi8>) {
  %0 = kiln.batch_norm %x, %p, %p, %p, %p epsilon 1.0e-05 : (tensor<1x4x2x2xi8>, tensor<4xi8>, tensor<4xi8>, tensor<4xi8>, tensor<4xi8>) -> tensor<1x4x2x2xi8>
  return
}
