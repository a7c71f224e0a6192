// Four layers whose intermediates die one after another: the memory plan
// reuses their memory, and the activations run in place.
func.func @chain(%x: tensor<16x32xf32> {kiln.name = "x"})
    -> (tensor<16x32xf32> {kiln.name = "y"}) {
  %w = kiln.constant dense<0.03125> : tensor<32x32xf32>
  %b = kiln.constant dense<0.5> : tensor<32xf32>
  %h0 = kiln.gemm %x, %w, %b {trans_b}
      : (tensor<16x32xf32>, tensor<32x32xf32>, tensor<32xf32>) -> tensor<16x32xf32>
  %a0 = kiln.relu %h0 : tensor<16x32xf32>
  %h1 = kiln.gemm %a0, %w, %b {trans_b}
      : (tensor<16x32xf32>, tensor<32x32xf32>, tensor<32xf32>) -> tensor<16x32xf32>
  %a1 = kiln.relu %h1 : tensor<16x32xf32>
  %h2 = kiln.gemm %a1, %w, %b {trans_b}
      : (tensor<16x32xf32>, tensor<32x32xf32>, tensor<32xf32>) -> tensor<16x32xf32>
  %a2 = kiln.relu %h2 : tensor<16x32xf32>
  %h3 = kiln.gemm %a2, %w, %b {trans_b}
      : (tensor<16x32xf32>, tensor<32x32xf32>, tensor<32xf32>) -> tensor<16x32xf32>
  %s = kiln.add %h3, %a2
      : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
  return %s : tensor<16x32xf32>
}
