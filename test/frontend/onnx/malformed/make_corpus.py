#!/usr/bin/python3
"""Writes the malformed-model robustness corpus of Kiln's ONNX importer.

    /usr/bin/python3 make_corpus.py OUTDIR

Every file written is malformed or hostile; `kilnc compile FILE --emit=mlir`
must reject it with a documented exit code (2 invalid model, 3 something
Kiln cannot compile yet) and a located message. OUTDIR/expectations.json
maps each model (a path relative to OUTDIR) to

    {"exit": 2 or 3, "message": "substring the error must contain",
     "args": [extra kilnc arguments], "why": "what is wrong"}

check_corpus.py runs kilnc on every entry. The generator is deterministic:
fixed seeds, no timestamps, the same bytes on every run. Side files
(external data, a symbolic link, a hard link, a FIFO, a directory named like
a model) are created here too; OUTDIR is emptied first.

The crash classes covered follow the project's reliability notes (ONNX
sections): truncation, wrong wire types, size and overflow checks, data
counts, attributes used as divisors/strides, constant indices, graph
structure (cycles, undefined and duplicate values), external-data
containment (absolute, '..', symbolic links in any component, hard links,
ranges past the end), nesting depth and unsupported features.
"""
import json
import os
import shutil
import sys

from corpus_lib import CASES, MARKER, Writer
from gen_bytes import gen_bytes, gen_model_level, gen_nesting
from gen_control_flow import gen_control_flow
from gen_data_dependent import gen_data_dependent
from gen_graph import gen_misc, gen_structure
from gen_integers import gen_integers, gen_topk_windows
from gen_legacy import gen_legacy, gen_training
from gen_linalg import gen_linalg
from gen_operators import gen_operators
from gen_recurrent import gen_recurrent
from gen_roialign import gen_roialign
from gen_sequences import gen_sequences
from gen_signal import gen_mel_and_text, gen_signal
from gen_shape_ops import gen_shape_ops
from gen_tensors import gen_external, gen_tensors


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_corpus.py OUTDIR")
    out = sys.argv[1]
    if os.path.lexists(out):
        # Only ever delete an earlier corpus (or an empty folder).
        if os.path.islink(out) or not os.path.isdir(out) or (
                os.listdir(out) and
                not os.path.exists(os.path.join(out, MARKER)) and
                not os.path.exists(os.path.join(out, "expectations.json"))):
            sys.exit("make_corpus.py: %s exists and is not a corpus; not "
                     "touching it" % out)
        shutil.rmtree(out)
    os.makedirs(out)
    with open(os.path.join(out, MARKER), "w") as f:
        f.write("written by make_corpus.py; deleted and rewritten by it\n")
    w = Writer(out)
    gen_bytes(w)
    gen_model_level(w)
    gen_nesting(w)
    gen_tensors(w)
    gen_structure(w)
    gen_recurrent(w)
    gen_integers(w)
    gen_topk_windows(w)
    gen_legacy(w)
    gen_training(w)
    gen_operators(w)
    gen_shape_ops(w)
    gen_sequences(w)
    gen_signal(w)
    gen_mel_and_text(w)
    gen_linalg(w)
    gen_control_flow(w)
    gen_roialign(w)
    gen_data_dependent(w)
    gen_external(w)
    gen_misc(w)
    # Messages as worded since the bugs these cases found were fixed.
    reworded = {
        "cast_to_string.onnx": "tensor element type STRING is not supported",
        "constant_string_tensor.onnx": "tensor element type STRING is not supported",
        "initializer_string.onnx": "tensor element type STRING is not supported",
        "input_complex64.onnx": "tensor element type COMPLEX64 is not supported",
        "initializer_type_999.onnx": "invalid tensor element type 999",
        "initializer_type_undefined.onnx": "invalid tensor element type 0",
        "input_elem_type_negative.onnx": "invalid tensor element type -5",
        "conv_rank1_input.onnx": "must be [N, C, spatial...] tensors of one rank",
        "conv_scalar_input.onnx": "must be [N, C, spatial...] tensors of one rank",
        "conv_weight_rank_mismatch.onnx": "must be [N, C, spatial...] tensors of one rank",
        "depthtospace_blocksize_zero.onnx": "blocksize in [1, 65536]",
        "duplicate_graph_input.onnx": "graph input 'x' is declared twice",
        "duplicate_initializer.onnx": "initializer 'b' is defined twice",
        "concat_constant_count_wraps.onnx": "would have the impossible type",
        "expand_constant_count_wraps.onnx": "would have the impossible type",
        "expand_constant_result_overflow.onnx": "would have the impossible type",
        "expand_overflow.onnx": "would have the impossible type",
        "pad_result_overflow.onnx": "would have the impossible type",
        "ext/ext_symlink_file.onnx": "links are refused",
        "ext/ext_symlink_parent_dir.onnx": "links are refused",
        "range_16m_elements.onnx": "the range has too many elements",
        "range_huge_count.onnx": "the range has too many elements",
        "range_infinite.onnx": "the range has too many elements",
        "conv_same_upper_huge_stride.onnx": "must be positive",
        "pad_int64_min.onnx": "crop more than its",
        "pad_negative_beyond_size.onnx": "crop more than its",
    }
    # Cases that turned out to be valid models once the arithmetic was
    # right (a single window with stride INT64_MAX is well defined).
    valid = {"maxpool_same_upper_int64_max_stride.onnx"}
    # Valid ONNX that Kiln does not run: "unsupported" (3), not "invalid".
    unsupported = {"input_sequence_type.onnx", "opset_only_custom_domain.onnx"}
    reworded["input_without_type.onnx"] = "input 'x' has no type"
    expectations = {}
    for rel, exit_code, message, args, why in CASES:
        if rel in valid:
            os.remove(os.path.join(out, rel))
            continue
        message = reworded.get(rel, message)
        if rel in unsupported:
            exit_code = 3
        assert rel not in expectations, rel
        entry = {"exit": exit_code, "message": message, "why": why}
        if args:
            entry["args"] = args
        expectations[rel] = entry
    with open(os.path.join(out, "expectations.json"), "w") as f:
        json.dump(expectations, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote %d malformed models to %s" % (len(expectations), out))


if __name__ == "__main__":
    main()

