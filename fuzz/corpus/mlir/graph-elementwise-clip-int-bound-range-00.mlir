func.func @clip_i8_bound_out_of_range() -> tensor<3xi8> {
  %c = kiln.constant dense<[-5, 0, 100]> : tensor<3xi8>
  %0 = kiln.clip %c min 1000.0 max 2000.0 : tensor<3xi8>
  return %0 : tensor<3xi8>
}
