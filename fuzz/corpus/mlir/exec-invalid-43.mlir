exec.program @unknown_access device(cpu) inputs(0) outputs(0) arena(64) {
  %0 = exec.fill #exec.binding<arena[0 : 16] rw> pattern(0 : i32)
}
