exec.program @cpu device(cpu) inputs(1) outputs(1) arena(256) {
  %0 = exec.dispatch @cpu_d0 grid [4, 1, 1]
         bindings [#exec.binding<input 0[0 : 64] read>,
                   #exec.binding<arena[0 : 64] write>]
         results [#exec.binding<arena[0 : 32] write>,
                  #exec.binding<arena[32 : 32] write>] types [f32, bf16]
         flops(4096)
  %1 = exec.fill #exec.binding<arena[64 : 64] write> pattern(0 : i32)
  %2 = exec.copy #exec.binding<arena[0 : 64] read>
         to #exec.binding<output 0[0 : 64] write> after(%0, %1)
  %3 = exec.collective all_reduce sum ranks(2) element(f32)
         send #exec.binding<arena[64 : 64] read>
         recv #exec.binding<arena[128 : 64] write> after(%1)
  %4 = exec.collective all_gather ranks(2) element(f16)
         send #exec.binding<arena[0 : 32] read>
         recv #exec.binding<arena[128 : 64] write>
  %5 = exec.collective send ranks(2) peer(1) element(i8)
         send #exec.binding<arena[0 : 8] read>
  %6 = exec.barrier after(%2, %3)
  %7 = exec.barrier
}
