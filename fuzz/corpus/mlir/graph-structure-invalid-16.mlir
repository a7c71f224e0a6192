func.func @yield_outside_fusion(%x: tensor<2xf32>) -> tensor<2xf32> {
  kiln.yield %x : tensor<2xf32>
}
