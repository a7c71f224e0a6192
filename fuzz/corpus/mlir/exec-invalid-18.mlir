func.func private @f(%a: memref<64xi8>) {
  return
}
exec.program @cpu_signature device(cpu) inputs(0) outputs(0) arena(64) {
  %0 = exec.dispatch @f grid [1, 1, 1] bindings [#exec.binding<arena[0 : 64] write>]
}
