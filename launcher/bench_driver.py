"""npython --bench: whole-program timing, eager against JIT.

Runs the program N times with NPY_JIT=off and N times with the JIT, each in a
fresh npython process (the two modes interleaved, so that the machine's noise
falls on both alike), and prints the wall times, the speed-up, what the JIT
did (from its counters) and whether stdout was the same in every run.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

# Counters of the JIT runs shown in the table, by the name npython reports
# them under (npython.stats()); a counter nothing has reported reads 0.
JIT_COUNTERS = [
    ("compile time (µs)", "jit.compile_us"),
    ("regions", "jit.regions"),
    ("kernels compiled", "jit.kernels_compiled"),
    ("kernels loaded from the disk cache", "jit.kernels_loaded"),
    ("kernels reused", "jit.kernels_reused"),
    ("eager fallbacks", "jit.fallbacks"),
    ("deoptimizations", "jit.deopts"),
    ("frames evaluated by npython", "frames.evaluated"),
]
MATERIALIZATION_PREFIX = "jit.materializations."
MODES = [("eager", {"NPY_JIT": "off"}), ("jit", {})]


# The bench's own options, each with a value; the program follows them.
BENCH_OPTIONS = ("--repeat", "--json", "--plot")


def split_program(argv):
    """The bench's options, and the program with its arguments: what python3
    takes after its own options (a script, -m module or -c code, each
    followed by the program's arguments), or None when there is none."""
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("-m", "-c"):
            if i + 1 == len(argv):
                return argv[:i + 1], None
            return argv[:i], (arg, argv[i + 1], argv[i + 2:])
        if arg in BENCH_OPTIONS:
            i += 2
        elif arg.startswith("-") and arg != "-":
            i += 1  # --repeat=N, -h, or one argparse reports
        else:
            return argv[:i], ("script", arg, argv[i + 1:])
    return argv, None


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="npython --bench",
        usage="npython --bench [--repeat N] [--json FILE] [--plot FILE.png] "
              "(script.py | -m module | -c code) [args ...]",
        description="Time a whole program eager (NPY_JIT=off) and with the JIT.")
    parser.add_argument("--repeat", type=int, default=3, metavar="N",
                        help="runs per mode (default 3)")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    parser.add_argument("--plot", metavar="FILE.png", help="also draw a bar chart (needs matplotlib)")
    parser.add_argument("-m", metavar="module", dest="module", help="run a module, as python3 -m")
    parser.add_argument("-c", metavar="code", dest="code", help="run code, as python3 -c")
    options, program = split_program(argv)
    args = parser.parse_args(options)
    if program is None:
        parser.error("a script, -m module or -c code is required")
    kind, target, args.args = program
    args.kind, args.target = kind, target
    # What the runs start after npython, and how the report names it.
    args.command = [target] if kind == "script" else [kind, target]
    code = target if len(target) <= 40 else target[:37] + "..."
    args.label = target if kind == "script" else f"-c {code!r}" if kind == "-c" else f"-m {target}"
    args.script = target if kind == "script" else None
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if kind == "script" and not os.path.exists(target):
        parser.error(f"can't open file '{target}'")
    if args.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            parser.error("--plot needs matplotlib, which is not installed (pip install matplotlib)")
    return args


def run_once(command, args, mode_env, kernel_cache):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NPY_")}
    env.update(mode_env)
    env["NPY_KERNEL_CACHE"] = kernel_cache
    with tempfile.TemporaryDirectory(prefix="npython-bench-") as tmp:
        stats_file = os.path.join(tmp, "stats.json")
        env["NPY_JIT_STATS"] = stats_file
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, *command, *args], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - start
        stats = {}
        if os.path.exists(stats_file):
            with open(stats_file) as f:
                stats = json.load(f)
    return {"seconds": elapsed, "returncode": proc.returncode, "stdout": proc.stdout,
            "stderr": proc.stderr, "stats": stats}


def summarize(runs):
    times = [r["seconds"] for r in runs]
    rest = times[1:]
    return {
        "first": times[0],
        "min_rest": min(rest) if rest else None,
        "median_rest": statistics.median(rest) if rest else None,
        "times": times,
    }


def fmt(seconds):
    return "-" if seconds is None else f"{seconds:.3f}"


def main(argv):
    args = parse_args(argv)
    show_progress = sys.stderr.isatty()
    runs = {mode: [] for mode, _ in MODES}
    total = args.repeat * len(MODES)
    done = 0
    # The JIT's runs share an empty kernel cache of their own: the first
    # compiles every kernel, the others load them, whatever the user's
    # cache holds.
    with tempfile.TemporaryDirectory(prefix="npython-bench-kernels-") as kernel_cache:
        for round_index in range(args.repeat):
            # Alternate which mode goes first, so that neither always meets the
            # colder machine.
            order = MODES if round_index % 2 == 0 else MODES[::-1]
            for mode, env in order:
                done += 1
                if show_progress:
                    print(f"\r[{done}/{total}] {mode} run of {args.label} ...", end="",
                          file=sys.stderr, flush=True)
                runs[mode].append(run_once(args.command, args.args, env, kernel_cache))
    if show_progress:
        print("\r" + " " * 60 + "\r", end="", file=sys.stderr, flush=True)

    failed = [(m, r) for m in runs for r in runs[m] if r["returncode"] != 0]
    outputs = {r["stdout"] for m in runs for r in runs[m]}
    identical = len(outputs) == 1
    summary = {mode: summarize(runs[mode]) for mode in runs}
    # The speed-up compares steady runs when there are any, first runs otherwise.
    key = "median_rest" if args.repeat > 1 else "first"
    speedup = summary["eager"][key] / summary["jit"][key]
    jit_stats = runs["jit"][-1]["stats"]

    print(f"npython --bench {args.label}: {args.repeat} run(s) per mode, each a fresh process")
    print()
    print("| mode | first run (s) | min of the others (s) | median of the others (s) |")
    print("|---|---|---|---|")
    for mode, label in (("eager", "eager (NPY_JIT=off)"), ("jit", "JIT")):
        s = summary[mode]
        print(f"| {label} | {fmt(s['first'])} | {fmt(s['min_rest'])} | {fmt(s['median_rest'])} |")
    print()
    print(f"speed-up, eager / JIT ({'median of the others' if key == 'median_rest' else 'first run'}): "
          f"{speedup:.2f}x")
    print()
    print("| JIT counter (last run) | value |")
    print("|---|---|")
    for label, name in JIT_COUNTERS:
        print(f"| {label} | {jit_stats.get(name, 0)} |")
    materializations = {k[len(MATERIALIZATION_PREFIX):]: v for k, v in jit_stats.items()
                        if k.startswith(MATERIALIZATION_PREFIX)}
    if materializations:
        for reason, count in sorted(materializations.items(), key=lambda kv: -kv[1]):
            print(f"| materializations: {reason} | {count} |")
    else:
        print("| materializations | 0 |")
    print()
    first_stats = runs["jit"][0]["stats"]
    print("kernel cache (the bench's own, empty at the start): the first JIT run compiled "
          f"{first_stats.get('jit.kernels_compiled', 0)} kernels and loaded "
          f"{first_stats.get('jit.kernels_loaded', 0)}; the last compiled "
          f"{jit_stats.get('jit.kernels_compiled', 0)} and loaded {jit_stats.get('jit.kernels_loaded', 0)} "
          "from the disk cache")
    print()
    if identical:
        print("stdout: identical in every run, eager and JIT")
    else:
        print("!!! STDOUT DIFFERS between runs: the JIT changed what the program prints !!!")
    for mode, run in failed:
        print(f"!!! a {mode} run exited with status {run['returncode']}:", file=sys.stderr)
        sys.stderr.write(run["stderr"].decode(errors="replace"))

    result = {
        "script": args.script, "module": args.target if args.kind == "-m" else None,
        "code": args.target if args.kind == "-c" else None, "args": args.args, "repeat": args.repeat,
        "modes": summary, "speedup": speedup, "speedup_basis": key,
        "jit_stats": jit_stats, "stdout_identical": identical,
        "failed_runs": [{"mode": m, "returncode": r["returncode"]} for m, r in failed],
    }
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)
    if args.plot:
        draw(result, args.plot)
    return 0 if identical and not failed else 1


def draw(result, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = ["first run", "min of others", "median of others"]
    keys = ["first", "min_rest", "median_rest"]
    fig, ax = plt.subplots(figsize=(7, 4))
    width = 0.38
    for i, (mode, name) in enumerate((("eager", "eager (NPY_JIT=off)"), ("jit", "JIT"))):
        values = [result["modes"][mode][k] or 0.0 for k in keys]
        xs = [j + (i - 0.5) * width for j in range(len(keys))]
        bars = ax.bar(xs, values, width, label=name)
        ax.bar_label(bars, fmt="%.3f", fontsize=8)
    ax.set_xticks(range(len(keys)), labels)
    ax.set_ylabel("wall time (s)")
    name = os.path.basename(result["script"]) if result["script"] else (
        f"-m {result['module']}" if result["module"] else "-c code")
    ax.set_title(f"{name}: speed-up {result['speedup']:.2f}x")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
