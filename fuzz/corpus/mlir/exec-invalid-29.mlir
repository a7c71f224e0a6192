exec.program @missing_recv device(cpu) inputs(0) outputs(0) arena(64) {
  %0 = exec.collective all_gather ranks(2) element(f32) send #exec.binding<arena[0 : 16] read>
}
