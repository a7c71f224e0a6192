#!/usr/bin/python3
"""Turns results.json into results.md (tables) and results.png (ratios).

Usage: report.py RESULTS.json  (rewrites the .md and .png beside it)
"""
import json
import re
import os
import sys

# Targets of issue 8 (1 thread, median Kiln / ONNX Runtime).
TARGETS = {"ew_chain": 0.5, "mlp_b1": 1.0, "bert_tiny": 1.0, "resnet18": 1.5}


def _ms(value):
    if value is None:
        return "–"
    return f"{value:.3g}" if value < 100 else f"{value:.0f}"


def _latency(entry):
    if not entry or "median_ms" not in entry:
        return "error" if entry and entry.get("error") else "–"
    return (f"{_ms(entry['median_ms'])} ({_ms(entry['p10_ms'])}–"
            f"{_ms(entry['p90_ms'])})")


def _ratio(value):
    return "–" if value is None else f"{value:.2f}"


def _bytes(value):
    if value is None:
        return "–"
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{value:.0f} {unit}" if unit == "B" else \
                f"{value:.1f} {unit}"
        value /= 1024


# Short names for the ratio columns.
SHORT = {"ort": "ORT", "torch": "PyTorch", "kiln": "Kiln",
         "kiln_nofusion": "Kiln unfused"}


def short(results, engine):
    base = re.sub(r"_t\d+$", "", engine)
    if base in SHORT:
        threads = threads_of(engine)
        return SHORT[base] + (f" {threads}t" if threads > 1 else "")
    return results["meta"]["labels"][engine]


# Keys `kilnc compile --stats-json` may use for each figure.
STAT_KEYS = {
    "peak": ("peak_bytes", "planned_peak_bytes", "arena_bytes", "peak"),
    "bound": ("lower_bound_bytes", "max_live_bytes", "lower_bound"),
    "kernels": ("kernels", "kernel_count", "num_kernels", "launches"),
}


def stat(stats, figure):
    """The first known key for `figure`, searched through nested objects."""
    if not isinstance(stats, dict):
        return None
    for key in STAT_KEYS[figure]:
        if isinstance(stats.get(key), (int, float)):
            return stats[key]
    for value in stats.values():
        found = stat(value, figure)
        if found is not None:
            return found
    return None


def kiln_names(results):
    return [e for e in results["meta"]["engines"] if e.startswith("kiln")]


def threads_of(engine):
    """Engines on N > 1 threads are named `<engine>_t<N>`."""
    match = re.search(r"_t(\d+)$", engine)
    return int(match.group(1)) if match else 1


def ratio_pairs(engines):
    """(numerator, denominator) columns: each Kiln over each peer on the
    same thread count, and each multi-threaded Kiln over itself on one."""
    kilns = [e for e in engines if e.startswith("kiln")]
    peers = [e for e in engines if not e.startswith("kiln")]
    pairs = [(k, p) for k in kilns for p in peers
             if threads_of(k) == threads_of(p)]
    for k in kilns:
        base = re.sub(r"_t\d+$", "", k)
        if threads_of(k) > 1 and base in kilns:
            pairs.append((k, base))
    return pairs


def markdown(results):
    meta = results["meta"]
    engines = meta["engines"]
    labels = meta["labels"]
    kilns = kiln_names(results)
    peers = [e for e in engines if not e.startswith("kiln")]
    pairs = ratio_pairs(engines)
    threads = sorted({threads_of(e) for e in engines})
    lines = [
        f"# Kiln benchmark ({meta['size']} workloads)", "",
        f"{meta['date']} on {meta['cpu']} ({meta['nproc']} cores, load "
        f"{meta['load_before']} before, {meta['load_after']} after); "
        f"{'/'.join(map(str, threads))} thread(s) per engine (a `_t<N>` "
        f"engine runs on N); Kiln {meta['kiln_revision']}"
        + "".join(f"; {labels[e]} {meta['versions'][e]}" for e in peers)
        + ".", "",
        "Latency in ms: median (p10–p90) over the repetitions; each "
        "repetition's sample is the median of a batch of back-to-back runs. "
        "Ratios are Kiln's median over the peer's (< 1: Kiln is faster); "
        "paired ratios are the median over repetitions of the ratio within "
        "each repetition (less sensitive to load that comes and goes).",
        "",
    ]
    head = ["workload"] + [labels[e] for e in engines]
    head += [f"{short(results, k)}/{short(results, p)}" for k, p in pairs]
    head += [f"paired {short(results, k)}/{short(results, p)}"
             for k, p in pairs]
    head += ["target Kiln/ORT", "outputs"]
    lines += ["| " + " | ".join(head) + " |",
              "|" + "---|" * len(head)]
    for w in results["workloads"]:
        row = [w["name"]] + [_latency(w["engines"].get(e)) for e in engines]
        row += [_ratio(w["ratios"].get(f"{k}/{p}")) for k, p in pairs]
        row += [_ratio(w.get("paired_ratios", {}).get(f"{k}/{p}"))
                for k, p in pairs]
        target = TARGETS.get(w["name"])
        measured = w["ratios"].get(f"{kilns[0]}/ort") if kilns else None
        if target is None:
            row.append("–")
        elif measured is None:
            row.append(f"≤ {target}")
        else:
            row.append(f"≤ {target} " + ("met" if measured <= target
                                         else "**missed**"))
        row.append("agree" if w["outputs_agree"] else "**MISMATCH**")
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "Compile time, memory and kernels:", ""]
    head = ["workload", "params"]
    for k in kilns:
        head += [f"{labels[k]} compile cold / warm / cached (ms)",
                 f"{labels[k]} arena", "peak / lower bound", "kernels"]
    if "ort" in engines:
        head.append("ORT session create (ms)")
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for w in results["workloads"]:
        row = [w["name"], f"{w['params']:,}"]
        for k in kilns:
            info = w["engines"].get(k, {}).get("prepare", {})
            stats = info.get("stats")
            peak, bound = stat(stats, "peak"), stat(stats, "bound")
            kernels = stat(stats, "kernels")
            row += [f"{_ms(info.get('compile_cold_ms'))} / "
                    f"{_ms(info.get('compile_warm_ms'))} / "
                    f"{_ms(info.get('compile_cached_ms'))}",
                    _bytes(info.get("arena_bytes")),
                    f"{_bytes(peak)} / {_bytes(bound)}",
                    str(kernels if kernels is not None else
                        info.get("kernel_calls", "–"))]
        if "ort" in engines:
            info = w["engines"].get("ort", {}).get("prepare", {})
            row.append(_ms(info.get("session_create_ms")))
        lines.append("| " + " | ".join(row) + " |")
    errors = [(w["name"], e, w["engines"][e]["error"])
              for w in results["workloads"] for e in w["engines"]
              if w["engines"][e].get("error")]
    if errors:
        lines += ["", "Errors:", ""]
        lines += [f"- {name} / {engine}: {error}"
                  for name, engine, error in errors]
    return "\n".join(lines) + "\n"


def chart(results, path):
    """Horizontal bars of Kiln/peer ratios (log scale), targets marked."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    meta = results["meta"]
    kilns = kiln_names(results)
    pairs = ratio_pairs(meta["engines"])
    names = [w["name"] for w in results["workloads"]]
    if not pairs or not names:
        return False
    fig, ax = plt.subplots(figsize=(9, 0.4 * len(names) * len(pairs) + 1.5))
    height = 0.8 / len(pairs)
    for j, (k, p) in enumerate(pairs):
        ys = [i + j * height for i in range(len(names))]
        xs = [w["ratios"].get(f"{k}/{p}") or 0 for w in results["workloads"]]
        bars = ax.barh(ys, xs, height=height,
                       label=f"{meta['labels'][k]} / {meta['labels'][p]}")
        for bar, x in zip(bars, xs):
            if x:
                ax.text(x * 1.05, bar.get_y() + bar.get_height() / 2,
                        f"{x:.2f}", va="center", fontsize=7)
    if (kilns[0] if kilns else None, "ort") in pairs:
        j = pairs.index((kilns[0], "ort"))
        for i, name in enumerate(names):
            if name in TARGETS:
                y = i + j * height
                ax.plot([TARGETS[name]] * 2, [y - height / 2, y + height / 2],
                        "r--", linewidth=1.5, zorder=3)
    ax.axvline(1.0, color="grey", linewidth=1)
    ax.set_xscale("log")
    ax.set_yticks([i + 0.4 - height / 2 for i in range(len(names))])
    ax.set_yticklabels(names)
    ax.invert_yaxis()
    ax.set_xlabel("latency ratio, median (log scale; < 1: Kiln faster; "
                  "dashed: target vs ONNX Runtime)")
    ax.set_title(f"Kiln vs peers ({meta['date'][:10]})")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def write(results, out_dir):
    """Writes results.json, results.md and (if matplotlib) results.png."""
    with open(os.path.join(out_dir, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    with open(os.path.join(out_dir, "results.md"), "w") as f:
        f.write(markdown(results))
    return chart(results, os.path.join(out_dir, "results.png"))


def main():
    with open(sys.argv[1]) as f:
        results = json.load(f)
    write(results, os.path.dirname(os.path.abspath(sys.argv[1])))


if __name__ == "__main__":
    main()
