#!/usr/bin/python3
"""sequences_vs_numpy.py OUTDIR --kilnc KILNC: graphs that build and consume
ONNX sequences inside themselves (SequenceEmpty/Construct/Insert/Erase/At/
Length, SplitToSequence, ConcatFromSequence), with positions given as
constants or as graph inputs (which `kilnc run` binds, as a JIT), against
numpy; and the refusals: a sequence as a graph output (exit 3), a position
out of range (exit 2). Fixed seed."""
import numpy as np
from onnx import helper

from kilnc_cases import cases_from_command_line

rng = np.random.default_rng(0)
node = helper.make_node
cases = cases_from_command_line(rtol=0, atol=0)
x = rng.standard_normal((7, 3)).astype(np.float32)
y = rng.standard_normal((2, 3)).astype(np.float32)
z = rng.standard_normal((4, 3)).astype(np.float32)
i64 = lambda v: np.array(v, np.int64)

# Pieces of 3 along axis 0 (the last one shorter), the last one taken from
# the end, and their count.
cases.add("split_scalar_at_negative",
          [node("SplitToSequence", ["x", "three"], ["s"], axis=0),
           node("SequenceAt", ["s", "minus_one"], ["last"]),
           node("SequenceLength", ["s"], ["n"])],
          {"x": x}, {"last": x[6:], "n": i64(3)},
          [("three", i64(3)), ("minus_one", i64(-1))])
# Pieces of 1 with keepdims 0 (squeezed), stacked back along a new last
# axis: the transpose.
cases.add("split_unit_stack_new_axis",
          [node("SplitToSequence", ["x"], ["s"], axis=0, keepdims=0),
           node("ConcatFromSequence", ["s"], ["t"], axis=-1, new_axis=1)],
          {"x": x}, {"t": x.T.copy()})
# Sizes [1, 4, 2] along axis 0, joined in reverse order by inserting at
# the front, then one erased (the default: the last).
cases.add("split_sizes_insert_front_erase",
          [node("SplitToSequence", ["x", "sizes"], ["s"], axis=0),
           node("SequenceAt", ["s", "zero"], ["a"]),
           node("SequenceAt", ["s", "one"], ["b"]),
           node("SequenceAt", ["s", "two"], ["c"]),
           node("SequenceEmpty", [], ["e"], dtype=1),
           node("SequenceInsert", ["e", "a"], ["e1"]),
           node("SequenceInsert", ["e1", "b", "zero"], ["e2"]),
           node("SequenceInsert", ["e2", "c", "zero"], ["e3"]),
           node("SequenceErase", ["e3"], ["e4"]),
           node("ConcatFromSequence", ["e4"], ["r"], axis=0)],
          {"x": x}, {"r": np.concatenate([x[5:], x[1:5]])},
          [("sizes", i64([1, 4, 2])), ("zero", i64(0)), ("one", i64(1)),
           ("two", i64(2))])
# Positions as graph inputs: the JIT compiles them in.
cases.add("positions_from_inputs",
          [node("SequenceConstruct", ["x", "y", "z"], ["s"]),
           node("SequenceErase", ["s", "erase_at"], ["s2"]),
           node("SequenceAt", ["s2", "at"], ["out"])],
          {"x": x, "y": y, "z": z, "erase_at": i64(-3), "at": i64(1)},
          {"out": z})
# Refusals.
cases.add("sequence_output",
          [node("SequenceConstruct", ["x", "y"], ["s"])],
          {"x": x, "y": y}, {"s": x}, expect_exit=3,
          expect_error="output 's' is a sequence")
cases.add("position_out_of_range",
          [node("SequenceConstruct", ["x", "y"], ["s"]),
           node("SequenceAt", ["s", "two"], ["out"])],
          {"x": x, "y": y}, {"out": x}, [("two", i64(2))], expect_exit=2,
          expect_error="position 2 is out of range for a sequence of 2 "
                       "tensor(s)")
cases.check()
