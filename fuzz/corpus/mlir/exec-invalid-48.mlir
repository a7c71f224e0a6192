func.func private @d(%in: memref<4xf32>, %out: memref<4xf32>, %arena: memref<64xi8>, %b: index, %e: index) {
  return
}
exec.program @result_outside device(cpu) inputs(1) outputs(1) arena(64) {
  %0 = exec.dispatch @d grid [1, 1, 1] bindings [#exec.binding<input 0[0 : 16] read>, #exec.binding<arena[0 : 32] write>] results [#exec.binding<input 0[0 : 16] write>] types [f32]
}
