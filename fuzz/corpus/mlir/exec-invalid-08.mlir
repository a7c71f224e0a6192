func.func private @d(%in: memref<4xf32>, %out: memref<4xf32>, %arena: memref<64xi8>, %b: index, %e: index) {
  return
}
exec.program @bad_grid device(cpu) inputs(1) outputs(1) arena(64) {
  %0 = exec.dispatch @d grid [0, 1, 1] bindings [#exec.binding<arena[0 : 64] write>]
}
