// A matmul with a bias and a ReLU: one fusion group, one kernel.
func.func @mlp(%x: tensor<64x32xf32>, %w: tensor<32x64xf32>, %b: tensor<64xf32>) -> tensor<64x64xf32> {
  %h = kiln.matmul %x, %w : (tensor<64x32xf32>, tensor<32x64xf32>) -> tensor<64x64xf32>
  %s = kiln.add %h, %b : (tensor<64x64xf32>, tensor<64xf32>) -> tensor<64x64xf32>
  %r = kiln.relu %s : tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
