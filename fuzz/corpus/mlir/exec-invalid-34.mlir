exec.program @peer_range device(cpu) inputs(0) outputs(0) arena(64) {
  %0 = exec.collective send ranks(2) peer(2) element(f32) send #exec.binding<arena[0 : 16] read>
}
