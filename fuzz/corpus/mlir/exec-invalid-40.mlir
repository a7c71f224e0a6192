exec.program @partial_overlap device(cpu) inputs(0) outputs(0) arena(64) {
  %0 = exec.collective all_reduce sum ranks(2) element(f32) send #exec.binding<arena[0 : 16] read> recv #exec.binding<arena[8 : 16] write>
}
