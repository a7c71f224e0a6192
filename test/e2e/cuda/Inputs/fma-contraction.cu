// a * a - c with a = 1 + 2^-12 and c = 1 + 2^-11: the exact product is
// c + 2^-24, which rounds to c; NVRTC contracts into one fma (2^-24, about
// 5.96e-8), separate rounding gives 0. in[1] is 1: no constant folding.
extern "C" __global__ void contract(const float *in, float *out) {
  float a = 1.0f + in[1] * 0x1p-12f;
  out[0] = a * a - (1.0f + 0x1p-11f);
}
