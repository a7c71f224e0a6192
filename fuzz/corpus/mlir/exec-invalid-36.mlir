exec.program @recv_reads device(cpu) inputs(0) outputs(0) arena(64) {
  %0 = exec.collective recv ranks(2) peer(1) element(f32) recv #exec.binding<arena[0 : 16] read>
}
