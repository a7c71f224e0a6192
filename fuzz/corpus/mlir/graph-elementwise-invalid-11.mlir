func.func @exp_of_dynamic_shape(%a: tensor<?xf32>) {
  %0 = kiln.exp %a : tensor<?xf32>
  return
}
