// y = tanh(relu(x·W + b)), s = softmax(3·y): contraction, arithmetic and a
// transcendental rounded, softmax an fp32 island.
func.func @main(%x: tensor<8x16xf32> {kiln.name = "x"}, %w: tensor<16x32xf32> {kiln.name = "w"})
    -> (tensor<8x32xf32> {kiln.name = "y"}, tensor<8x32xf32> {kiln.name = "s"}) {
  %b = kiln.constant dense<0.0123456789> : tensor<32xf32>
  %three = kiln.constant dense<3.0> : tensor<f32>
  %m = kiln.matmul %x, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %a = kiln.add %m, %b : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %r = kiln.relu %a : tensor<8x32xf32>
  %y = kiln.tanh %r : tensor<8x32xf32>
  %t = kiln.mul %y, %three : (tensor<8x32xf32>, tensor<f32>) -> tensor<8x32xf32>
  %s = kiln.softmax %t axis 1 : tensor<8x32xf32>
  return %y, %s : tensor<8x32xf32>, tensor<8x32xf32>
}
