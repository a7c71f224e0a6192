exec.program @scatter_size device(cpu) inputs(0) outputs(0) arena(64) {
  %0 = exec.collective reduce_scatter sum ranks(2) element(f32) send #exec.binding<arena[0 : 24] read> recv #exec.binding<arena[32 : 8] write>
}
