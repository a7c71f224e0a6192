func.func @clip_bool(%a: tensor<4xi1>) {
  %0 = kiln.clip %a max 1.0 : tensor<4xi1>
  return
}
