//===- HalfFloat.h - f16 and bf16 to and from f32 ----------------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The host has no arithmetic for f16 and bf16: reductions widen to f32 and
// round back once, to nearest even (NaN stays NaN, quiet).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_COLLECTIVES_HALFFLOAT_H
#define KILN_RUNTIME_COLLECTIVES_HALFFLOAT_H

#include <cstdint>
#include <cstring>

namespace kiln::rt {

inline float bitsToFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

inline uint32_t floatToBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

inline float bf16ToFloat(uint16_t bits) {
  return bitsToFloat(uint32_t(bits) << 16);
}

inline uint16_t floatToBf16(float value) {
  uint32_t bits = floatToBits(value);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u) // NaN: keep the sign, make it quiet.
    return uint16_t((bits >> 16) | 0x0040u);
  uint32_t rounding = 0x7FFFu + ((bits >> 16) & 1u);
  return uint16_t((bits + rounding) >> 16);
}

inline float f16ToFloat(uint16_t half) {
  uint32_t sign = uint32_t(half & 0x8000u) << 16;
  uint32_t exponent = (half >> 10) & 0x1Fu;
  uint32_t mantissa = half & 0x3FFu;
  if (exponent == 0x1F) // Infinity or NaN.
    return bitsToFloat(sign | 0x7F800000u | (mantissa << 13));
  if (exponent == 0) { // Zero or subnormal: mantissa * 2^-24.
    float magnitude = float(mantissa) * (1.0f / 16777216.0f);
    return sign ? -magnitude : magnitude;
  }
  return bitsToFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

inline uint16_t floatToF16(float value) {
  uint32_t bits = floatToBits(value);
  uint16_t sign = uint16_t((bits >> 16) & 0x8000u);
  uint32_t magnitude = bits & 0x7FFFFFFFu;
  if (magnitude > 0x7F800000u) // NaN: quiet, keep the top mantissa bits.
    return uint16_t(sign | 0x7E00u | ((magnitude >> 13) & 0x3FFu));
  if (magnitude >= 0x477FF000u) // Rounds to 65520 or more: infinity.
    return uint16_t(sign | 0x7C00u);
  if (magnitude < 0x38800000u) { // Below 2^-14: subnormal or zero.
    // Adding 0.5 moves the value's bits so that the float adder rounds the
    // subnormal mantissa to nearest even; then subtract the 0.5 back out.
    float rounded = bitsToFloat(magnitude) + 0.5f;
    return uint16_t(sign | uint16_t(floatToBits(rounded) - 0x3F000000u));
  }
  uint32_t rounding = 0xFFFu + ((magnitude >> 13) & 1u);
  magnitude += rounding - (112u << 23);
  return uint16_t(sign | uint16_t(magnitude >> 13));
}

} // namespace kiln::rt

#endif // KILN_RUNTIME_COLLECTIVES_HALFFLOAT_H
