func.func @outside() {
  %0 = exec.barrier
  return
}
