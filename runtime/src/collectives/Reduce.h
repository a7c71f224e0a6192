//===- Reduce.h - Element-wise reductions of rank buffers --------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_COLLECTIVES_REDUCE_H
#define KILN_RUNTIME_COLLECTIVES_REDUCE_H

#include "kiln/runtime/Communicator.h"

#include <cstddef>

namespace kiln::rt {

/// Whether `op` is defined on `dtype` (every type but i1).
bool canReduce(DType dtype);

/// out[k] = inputs[0][k] op inputs[1][k] op ... for k in [0, count), in
/// input order; f16 and bf16 accumulate in f32 and round once. `out` may
/// be one of the inputs (same elements), never a partial overlap.
void reduceElements(DType dtype, ReduceOp op, const void *const *inputs,
                    size_t inputCount, size_t count, void *out);

} // namespace kiln::rt

#endif // KILN_RUNTIME_COLLECTIVES_REDUCE_H
