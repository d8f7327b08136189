"""Random NumPy programs for tests/property/test_random_programs.py.

A program is an expression DAG of 1 to 12 NumPy operations over 1 to 4 input
arrays, rendered as two Python functions (`make<i>`, which builds the inputs
from a seeded np.random.default_rng, and `prog<i>`, which computes) that a
batch script runs under python3 and under npython. Each result the program
returns carries a tag, computed here from the operations that lead to it,
saying how its values are compared (see `check_values` in the test):

  bits          bitwise equal (NaN payloads aside): integer and boolean
                results, and floats computed only by correctly rounded or
                exact operations (+ - * / sqrt, comparisons, min/max, where,
                astype, floor/ceil/..., // and % by NumPy's formula) and by
                the functions NumPy computes with algorithms of its own (exp,
                log, sin, cos, tanh, arctan2, float **), which npython's
                kernels compute through NumPy's own inner loops
  ulp:K         elementwise within K units in the last place (np.spacing of
                the reference): what relative-error-preserving operations
                (* / sqrt abs min max where astype, tanh) make of values
                within K ulps
  int:K:T       integers converted (astype) from floats of type T within K
                ulps: within K ulps of T at the magnitude of the float the
                reference converted (which the program also returns), plus 1
                (a float near an integer may truncate either way); where that
                float is beyond the integer type's range (or not finite) the
                result is NumPy's undefined cast: not compared
  sum:N:K       float sum over N elements (each within K ulps of exact) within
  mean:N:K      (N + 2) eps * scale + 2 K eps * scale, where scale is the sum
                (mean) of |x| over the same axes, which the program also returns
                (a float16 sum: eps of float32, NumPy's accumulator, plus 2
                ulps of float16)
  prod:N:K      within 2 (N + 2 + N K) eps relative
  norm:N:K      within 2 (N + 2 + 2 K) eps relative
  approx:B      any other float result computed from inexact values (after
                a cancellation, say): rtol 1e-2 / 1e-4 / 1e-10 for B = 2 / 4 /
                8, the size of the least precise float type the error comes
                from, plus the same times the largest magnitude in the result
                as atol
  unchecked     floats that sin, cos, ** or // and % make of inexact values
                (which can enlarge an ulp of error without bound): only the
                type, dtype, shape and layout are compared
  a trailing ~  the value depends on an inexact one through a discontinuity
                (a comparison, a conversion to integer, floor, //, argmax,
                where's condition...); it is compared by the rule before the
                ~ as if the discontinuity kept the value exact (integer and
                boolean results are compared bitwise, as asked), which an
                implementation within the tolerances above may not, where an
                inexact value lies within its tolerance of the discontinuity:
                the failure message says so

The data come from the seed in the program's text, so the text fixes them.
Which operations a program contains, its shapes and dtypes, are decided here
with Hypothesis; to know the dtype and shape of every intermediate value (for
axes and tags) and whether an operation raises, each operation is first run
on stand-in arrays of the right dtype and shape (an operation that raises is
kept, sometimes, as the program's last: it must raise the same under npython).
About 60% of the programs have an input of 2048 elements or more (npython
traces operations on those), some beyond 32768 (where its kernels use several
threads); the others are small (down to 0-d and empty). The programs run
under np.errstate(all='ignore') (70%), with NumPy's default error handling
(20%: RuntimeWarnings go to stderr), or with np.errstate(all='ignore') inside
the function and the results looked at outside it (10%); 15% call the
function twice.
"""
import functools
import math
import re
import warnings
from dataclasses import dataclass, field, replace

import numpy as np
from hypothesis import strategies as st

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64"]

BINARY_OPERATORS = {
    "+": "add", "-": "subtract", "*": "multiply", "/": "divide", "//": "floor_divide",
    "%": "remainder", "**": "power", "&": "bitwise_and", "|": "bitwise_or", "^": "bitwise_xor",
    "<": "less", "<=": "less_equal", "==": "equal", "!=": "not_equal", ">": "greater",
    ">=": "greater_equal",
}
INPLACE_OPERATORS = ["+", "-", "*", "/", "//", "%", "**", "&", "|", "^"]
BINARY_UFUNCS = ["add", "subtract", "multiply", "divide", "minimum", "maximum", "fmin", "fmax",
                 "arctan2", "logical_and"]
UNARY_UFUNCS = ["negative", "absolute", "sqrt", "square", "exp", "log", "sin", "cos", "tanh",
                "floor", "ceil", "trunc", "rint", "isnan", "isfinite", "logical_not"]
REDUCTIONS = ["sum", "prod", "min", "max", "mean", "argmin", "argmax", "any", "all"]

# Operations whose float result is bitwise reproducible from bitwise equal
# operands; how a relative error in the operands carries through them.
EXACT_OPS = {"add", "subtract", "multiply", "divide", "negative", "positive", "absolute", "sqrt",
             "square", "minimum", "maximum", "fmin", "fmax", "floor", "ceil", "trunc", "rint",
             "where", "astype", "min", "max", "floor_divide", "remainder", "clip", "view"}
# Computed by NumPy's own inner loops, in npython's kernels too: NumPy's bits.
NUMPY_LOOP_OPS = {"exp", "log", "sin", "cos", "tanh", "arctan2", "power"}
SUM_OPS = {"sum", "prod", "mean", "norm"}
# Operations that can enlarge an error of their operands without bound (sin
# and cos of a large argument, x ** y, the quotient of // and %): what they
# make of an inexact value is not compared.
AMPLIFYING_OPS = {"sin", "cos", "power", "floor_divide", "remainder"}
DISCONTINUOUS_OPS = {"floor", "ceil", "trunc", "rint", "floor_divide", "remainder", "less",
                     "less_equal", "equal", "not_equal", "greater", "greater_equal", "isnan",
                     "isfinite", "argmin", "argmax", "any", "all", "logical_and", "logical_not",
                     "bitwise_and", "bitwise_or", "bitwise_xor", "invert"}

# Python and NumPy scalars as operands (text as written in the program).
PY_INT_SCALARS = ["0", "1", "2", "3", "-1", "-3", "7", "100", "255", "300", "-129", "65536",
                  "(2**31)", "(2**63 - 1)", "(-2**63)", "(2**64)"]
PY_FLOAT_SCALARS = ["0.5", "-1.5", "2.0", "0.0", "-0.0", "1e-3", "3.75", "1e300",
                    "float('inf')", "float('nan')"]
PY_BOOL_SCALARS = ["True", "False"]
NP_SCALARS = ["np.int8(-3)", "np.uint8(200)", "np.int16(1000)", "np.uint16(7)", "np.int32(-7)",
              "np.uint32(4000000000)", "np.int64(5)", "np.uint64(2**63)", "np.float32(0.25)",
              "np.float32(-2.5)", "np.float64(1.5)", "np.float64(-0.0)", "np.bool_(True)"]

NAME = re.compile(r"\b[at]\d+\b")

# Big enough for npython to trace them (2048+ elements), some beyond 32768
# (where its kernels start using several threads).
# The last four: sums of 128 times a power of two elements, which kernels
# add leaf by leaf.
BIG_SHAPES = [(200, 150), (150, 200), (24000,), (20000,), (30, 40, 20), (2, 100, 120),
              (128, 160), (25, 30, 30), (160, 1, 128), (300, 200), (50000,), (40, 40, 40),
              (256, 1, 300), (16384,), (32, 256), (64, 8, 16), (4, 32, 128)]


@dataclass
class Input:
    name: str
    dtype: str
    shape: tuple
    view: str        # c, step, rev, revlast, T, perm:..., bcast, scalar
    kind: str        # data kind for _data
    code: str = ""


@dataclass
class Node:
    name: str
    lines: list      # source lines (one, or two for an in-place operator)
    op: str          # semantic operation name
    bound: tuple     # see combine_bound
    dtype: str = ""
    shape: tuple = ()
    fails: bool = False
    reduce_call: str = ""   # for sum/mean results: the call computing the scale

    def refs(self):
        """Names of the inputs and operations this one reads."""
        return _reads(self.name, self.lines)


def _reads(name, lines):
    """Names the source lines of operation `name` read (`name = ...`, then
    `name op= ...` or `name[...] = ...`)."""
    found = set()
    for line in lines:
        found.update(NAME.findall(line.partition(" = ")[2] if line.startswith(f"{name} = ") else line))
    found.discard(name)
    return found


@dataclass
class Program:
    seed: int
    inputs: list
    nodes: list
    results: list            # node names
    tags: list
    scales: list             # per result: source of the scale expression or None
    mode: str                # ignore | default | inner
    calls: int
    notes: list = field(default_factory=list)

    def is_big(self):
        return any(math.prod(i.shape) >= 2048 for i in self.inputs)

    def restricted(self, keep):
        """The program computing only results `keep` (indices), with the
        operations they need (and the operation that raises, if one does)."""
        wanted = {self.results[j] for j in keep}
        if self.nodes and self.nodes[-1].fails:
            wanted.add(self.nodes[-1].name)
        for node in reversed(self.nodes):
            if node.name in wanted:
                wanted.update(node.refs())
        return replace(self, nodes=[n for n in self.nodes if n.name in wanted],
                       results=[self.results[j] for j in keep],
                       tags=[self.tags[j] for j in keep], scales=[self.scales[j] for j in keep])

    def with_calls(self, calls):
        return replace(self, calls=calls)

    def without_node(self, k):
        """The program without operation k, or None when others need it."""
        name = self.nodes[k].name
        if any(name in n.refs() for n in self.nodes if n.name != name):
            return None
        keep = [j for j, r in enumerate(self.results) if r != name]
        if not keep or (self.nodes[k].fails and k == len(self.nodes) - 1):
            return None
        return replace(self, nodes=self.nodes[:k] + self.nodes[k + 1:],
                       results=[self.results[j] for j in keep],
                       tags=[self.tags[j] for j in keep], scales=[self.scales[j] for j in keep])

    def render(self, index, only_results=None):
        """Source of make<index>, prog<index> and the line registering them;
        only_results: indices of the results to keep (for smaller reproducers)."""
        keep = range(len(self.results)) if only_results is None else only_results
        results = [self.results[j] for j in keep]
        scales = [self.scales[j] for j in keep]
        tags = [self.tags[j] for j in keep]
        out = [f"def make{index}():", f"    rng = np.random.default_rng({self.seed})"]
        for inp in self.inputs:
            out.append(f"    {inp.name} = {inp.code}")
        out.append(f"    return {', '.join(i.name for i in self.inputs)},")
        out.append("")
        out.append(f"def prog{index}({', '.join(i.name for i in self.inputs)}):")
        indent = "    "
        if self.mode == "inner":
            out.append("    with np.errstate(all='ignore'):")
            indent = "        "
        scale_of = {r: s for r, s in zip(results, scales) if s is not None}
        for node in self.nodes:
            for line in node.lines:
                out.append(indent + line)
            if node.name in scale_of:
                # The scale of a float sum, right after it (its operand may change later).
                out.append(f"{indent}s_{node.name} = {scale_of[node.name]}")
        scale_text = [f"s_{r}" if r in scale_of else "None" for r in results]
        out.append(f"    return [{', '.join(results)}], [{', '.join(scale_text)}]")
        out.append("")
        out.append(f"_PROGRAMS.append(({index}, make{index}, prog{index}, {tags!r}, "
                   f"{self.mode!r}, {self.calls}))")
        return "\n".join(out) + "\n"


def finfo_eps(dtype):
    return float(np.finfo(dtype).eps)


def is_float(dtype):
    return np.dtype(dtype).kind == "f"


def convert_ulps(k, from_dtype, to_dtype):
    """k ulps of from_dtype as ulps of to_dtype (rounded up)."""
    if k == 0 or not is_float(from_dtype) or not is_float(to_dtype):
        return k
    return int(math.ceil(k * finfo_eps(from_dtype) / finfo_eps(to_dtype)))


def combine_bound(op, operands, out_dtype, reduced=1):
    """Error bound of an operation's result from its operands' bounds:
    ("E",) exact, ("R", k, b) within k ulps of out_dtype, ("S", op, n, k) a
    float sum, ("A", b) approximate, ("U",) unbounded; b is the size of the
    least precise float type the error comes from; ("I", k, t) integers
    converted from floats of type t within k ulps (used as exact, and
    tainted, by what reads them).
    operands: list of (bound, dtype) of the value operands."""
    operands = [(("E",) if b[0] == "I" else b, dt) for b, dt in operands]
    if not is_float(out_dtype):
        # An integer conversion of a float within k ulps.
        if op == "astype" and operands[0][0][0] == "R" and np.dtype(out_dtype).kind in "iu":
            (_, k, _), float_dtype = operands[0]
            return ("I", k, np.dtype(float_dtype).name)
        return ("E",)
    bounds = [b for b, _ in operands]
    inexact = any(b[0] != "E" for b in bounds)
    if any(b[0] == "U" for b in bounds):
        return ("U",)
    if inexact and op in ("floor", "ceil", "trunc", "rint") and all(b[0] in "ER" for b in bounds):
        # Equal unless a value lies near an integer (see tainted()), or is
        # an integer already (beyond 2**23 in float32): its ulps pass through
        # (an approximate value stays approximate, below).
        k = max(convert_ulps(b[1], dt, out_dtype) if b[0] == "R" else 0 for b, dt in operands)
        return ("R", k, min(b[2] for b in bounds if b[0] == "R"))
    if inexact and op in AMPLIFYING_OPS:
        return ("U",)
    origin = min([np.dtype(out_dtype).itemsize] +
                 [np.dtype(dt).itemsize for b, dt in operands if b[0] != "E" and is_float(dt)] +
                 [b[2] for b in bounds if b[0] == "R"] + [b[1] for b in bounds if b[0] == "A"])
    approx = ("A", origin)
    if any(b[0] in ("A", "S") for b in bounds):
        return approx
    ks = [convert_ulps(b[1], dt, out_dtype) if b[0] == "R" else 0 for b, dt in operands]
    inexact = any(b[0] == "R" for b in bounds)
    if op in SUM_OPS:
        kind = op
        k = max(ks) if ks else 0
        return ("S", kind, reduced, k)
    if op in NUMPY_LOOP_OPS:
        if not inexact:
            return ("E",)
        if op == "tanh":
            return ("R", ks[0] + 4, origin)
        return approx
    if not inexact:
        return ("E",)
    if op in ("multiply", "divide"):
        return ("R", sum(ks) + 1, origin)
    if op == "sqrt":
        return ("R", ks[0] + 1, origin)
    if op == "square":
        return ("R", 2 * ks[0] + 1, origin)
    if op in ("negative", "absolute", "positive", "min", "max", "view"):
        return ("R", ks[0], origin)
    if op in ("minimum", "maximum", "fmin", "fmax", "where", "clip"):
        return ("R", max(ks), origin)
    if op == "astype":
        return ("R", ks[0] + 1, origin)
    return approx


def tainted(op, operands, out_dtype, condition=None):
    """Whether a value depends on an inexact one through a discontinuity (a
    comparison, a conversion to integer, floor, //, argmax, ...), so that an
    implementation within the tolerances can still differ from NumPy where an
    inexact value lies within its tolerance of the discontinuity.
    operands, condition: (bound, dtype, tainted) of the operands."""
    every = list(operands) + ([condition] if condition is not None else [])
    if any(t for _, _, t in every):
        return True
    if condition is not None and condition[0][0] not in "EI":
        return True
    inexact = any(bd[0] not in "EI" for bd, _, _ in operands)
    return inexact and (op in DISCONTINUOUS_OPS or not is_float(out_dtype))


def tag_of(bound, taint=False):
    if bound[0] == "E":
        tag = "bits"
    elif bound[0] == "R":
        tag = f"ulp:{max(bound[1], 1)}"
    elif bound[0] == "S":
        tag = f"{bound[1]}:{bound[2]}:{bound[3]}"
    elif bound[0] == "A":
        tag = f"approx:{bound[1]}"
    elif bound[0] == "I":
        tag = f"int:{max(bound[1], 1)}:{bound[2]}"
    else:
        tag = "unchecked"
    return tag + ("~" if taint else "")


def _quiet_eval(expr, env):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return eval(expr, {"np": np}, env)  # noqa: S307 - our own generated text


def _quiet_exec(code, env):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(code, {"np": np}, env)  # noqa: S102 - our own generated text


@functools.lru_cache(maxsize=None)
def _integers(lo, hi):
    return st.integers(lo, hi)


@functools.lru_cache(maxsize=None)
def _sampled_from(items):
    return st.sampled_from(items)


class _Builder:
    def __init__(self, draw):
        self.draw = draw

    def chance(self, percent):
        return self.draw(_integers(0, 99)) < percent

    def pick(self, items):
        return self.draw(_sampled_from(tuple(items)))

    def integer(self, lo, hi):
        return self.draw(_integers(lo, hi))

    # ---- inputs ----

    def full_shape(self):
        if self.chance(60):
            self.big = True
            if self.chance(50):
                return self.pick(BIG_SHAPES)
            rank = self.integer(1, 3)
            if rank == 1:
                return (self.pick([self.integer(2048, 16383), self.integer(16384, 70000)]),)
            if rank == 2:
                a = self.integer(90, 300)
                return (a, -(-20000 // a) + self.integer(0, 150))
            a = self.integer(2, 30)
            b = self.integer(10, 60)
            return (a, b, -(-20000 // (a * b)) + self.integer(0, 30))
        self.big = False
        rank = self.integer(0, 3)
        dims = [self.pick([1, 2, 3, 4, 5, 6, 7]) for _ in range(rank)]
        if rank and self.chance(8):
            dims[self.integer(0, rank - 1)] = 0
        return tuple(dims)

    def input_shape(self, full, first):
        if first and self.big:
            return full
        rank = len(full) if self.chance(60) else self.integer(0, len(full))
        dims = list(full[len(full) - rank:])
        for d in range(rank):
            if dims[d] != 1 and self.chance(20):
                dims[d] = 1
        if rank and self.chance(3):
            d = self.integer(0, rank - 1)
            dims[d] = dims[d] + 1 if dims[d] > 1 else 3
        return tuple(dims)

    def data_kind(self, dtype):
        kind = np.dtype(dtype).kind
        if kind == "b":
            return self.pick(["half", "half", "rare", "most"])
        if kind in "iu":
            return self.pick(["small", "small", "mid", "full"])
        return self.pick(["normal", "normal", "ints", "special", "wide"])

    def make_input(self, name, full, first, dtype):
        shape = self.input_shape(full, first)
        kind = self.data_kind(dtype)
        rank = len(shape)
        views = ["c", "c", "c"]
        if rank >= 1:
            views += ["step", "rev"]
        if rank >= 2:
            views += ["T", "revlast"]
        if any(d > 1 for d in shape):
            views += ["bcast"]
        if rank == 0:
            views += ["scalar"]
        view = self.pick(views)
        base = shape
        suffix = ""
        if view == "step":
            base = (shape[0] * 2,) + shape[1:]
            suffix = "[::2]"
        elif view == "rev":
            suffix = "[::-1]"
        elif view == "revlast":
            suffix = "[..., ::-1]"
        elif view == "T":
            if rank == 2:
                base = shape[::-1]
                suffix = ".T"
            else:
                perm = self.draw(st.permutations(list(range(rank))))
                b = [0] * rank
                for k, p in enumerate(perm):
                    b[p] = shape[k]
                base = tuple(b)
                suffix = f".transpose({tuple(perm)!r})"
                view = f"perm:{tuple(perm)}"
        elif view == "scalar":
            suffix = "[()]"
        data = f"_data(rng, {base!r}, {dtype!r}, {kind!r})"
        if view == "bcast":
            small = tuple(1 if (d > 1 and self.chance(60)) else d for d in shape)
            if small == shape:
                small = tuple(1 if d > 1 else d for d in shape)
            code = f"np.broadcast_to(_data(rng, {small!r}, {dtype!r}, {kind!r}), {shape!r})"
        else:
            code = data + suffix
        return Input(name, dtype, shape, view, kind, code)

    # ---- operations ----

    def scalar(self):
        return self.pick(self.pick(
            [tuple(PY_INT_SCALARS), tuple(PY_INT_SCALARS), tuple(PY_FLOAT_SCALARS),
             tuple(PY_FLOAT_SCALARS), tuple(PY_BOOL_SCALARS), tuple(NP_SCALARS),
             tuple(NP_SCALARS)]))

    def array(self):
        names = self.live
        if len(names) > 1 and self.chance(45):
            return names[-1]
        return self.pick(names)

    def operand(self, scalar_percent=25):
        if self.chance(scalar_percent):
            return self.scalar()
        return self.array()

    def axis_text(self, rank, single):
        """An axis argument (text) and whether NumPy accepts it (as far as we know)."""
        choices = ["none"]
        if rank >= 1:
            choices += ["pos", "pos", "neg"]
            if not single:
                choices += ["tuple", "tuple"]
        choices += ["bad"]
        if not single:
            choices += ["empty"]
        what = self.pick(choices)
        if what == "none":
            return "None"
        if what == "pos":
            return str(self.integer(0, rank - 1))
        if what == "neg":
            return str(-self.integer(1, rank))
        if what == "empty":
            return "()"
        if what == "tuple":
            axes = self.draw(st.lists(st.integers(0, rank - 1), min_size=1, max_size=rank,
                                      unique=True))
            axes = [a - rank if self.chance(30) else a for a in axes]
            return repr(tuple(axes))
        # Out of range, repeated, or a tuple where one axis is wanted.
        bad = [str(rank), str(-rank - 1)]
        if rank >= 1:
            bad += [repr((0, 0)), repr((0, -rank))]
            if single and rank >= 2:
                bad += [repr((0, 1))]
        return self.pick(bad)

    def reduction(self, x, rank):
        name = self.pick(REDUCTIONS)
        single = name in ("argmin", "argmax")
        axis = self.axis_text(rank, single)
        keep = self.pick([None, None, True, False])
        method = self.chance(50)
        args = []
        axis_given = axis != "None" or self.chance(30)
        positional = axis_given and self.chance(35)
        if axis_given:
            args.append(axis if positional else f"axis={axis}")
        if keep is not None:
            args.append(f"keepdims={keep}")
        if method:
            text = f"{x}.{name}({', '.join(args)})"
        else:
            fname = name
            if name in ("min", "max") and self.chance(40):
                fname = "a" + name
            text = f"np.{fname}({', '.join([x] + args)})"
        scale_kw = [f"axis={axis}"] if axis_given else []
        if keep is not None:
            scale_kw.append(f"keepdims={keep}")
        return name, text, ", ".join(scale_kw)

    def norm(self, x, rank):
        axis = self.axis_text(rank, single=True)
        if rank >= 2 and self.chance(20):
            axis = repr((0, rank - 1))  # matrix (Frobenius) norm over two axes
        args = [x]
        if axis != "None" or self.chance(50):
            args.append(f"axis={axis}")
        if self.chance(30):
            args.append("keepdims=True")
        return f"np.linalg.norm({', '.join(args)})"

    def assignment(self):
        """`t[index] = value` into the value t names (written @ until the
        operation has a name): a boolean mask, a basic index, or a part of
        t assigned from another part of t (NumPy computes the value first)."""
        target = self.array()
        rank = len(self.shapes[target])
        form = self.pick(["mask", "mask", "part", "part", "self", "other"] if rank else ["part"])
        value = self.scalar()
        # What decides which elements change: a boolean value, or t itself.
        condition = None
        if form == "mask":
            masks = [m for m in self.live if self.dtypes[m] == "bool" and self.shapes[m] == self.shapes[target]]
            if masks and self.chance(40):
                index = condition = self.pick(masks)
            else:
                index = f"@ > {self.scalar()}"
                condition = target
        elif form == "part":
            index = self.pick(["...", "::2", "::-1", "1:-1", "2:2"] if not rank else
                              ["...", "0", "-1", "1:", "::2", "::-1", "1:-1", "2:2", "..., :1", "None, 1:"] +
                              (["1:, ::-2", ":, 0", "0, ..."] if rank >= 2 else []))
        elif form == "self":
            index, part = self.pick([("1:", "[:-1]"), (":-1", "[1:]"), ("::-1", ""), ("1:-1", "[2:]"),
                                     ("..., 1:", "[..., :-1]"), ("::2", "[1::2]"), (":", "[::-1] * 2")])
            value = f"@{part}"
        else:
            index = self.pick(["...", "1:", "::-1", "..., :1"])
            value = self.array()
        operands = [target] + ([value] if value in self.live else [])
        source = target if value.startswith("@") else value
        return "setitem", (target, index, value), operands, {"assign": condition, "source": source,
                                                           "scaled": "*" in value}

    def one_op(self):
        """(op name, source lines, value operand names, reduce info, in-place target)."""
        kind = self.pick(["binop"] * 6 + ["ufunc2"] * 3 + ["ufunc1"] * 4 + ["where"] * 2 +
                         ["astype"] * 2 + ["reduce"] * 3 + ["norm", "unary", "inplace", "clip", "moment"] +
                         ["view"] * 2 + ["assign"] * 2 + ["nested"] * 2)
        if kind == "binop":
            sym = self.pick(list(BINARY_OPERATORS))
            a, b = self.operand(), self.operand()
            if a not in self.live and b not in self.live:
                a = self.array()
            return BINARY_OPERATORS[sym], f"{a} {sym} {b}", [a, b], None
        if kind == "ufunc2":
            name = self.pick(BINARY_UFUNCS)
            a, b = self.operand(), self.operand()
            if a not in self.live and b not in self.live:
                b = self.array()
            return name, f"np.{name}({a}, {b})", [a, b], None
        if kind == "ufunc1":
            name = self.pick(UNARY_UFUNCS)
            a = self.array()
            return name, f"np.{name}({a})", [a], None
        if kind == "unary":
            sym = self.pick(["-", "-", "~"])
            a = self.array()
            return ("negative" if sym == "-" else "invert"), f"{sym}{a}", [a], None
        if kind == "where":
            c = self.array()
            a, b = self.operand(35), self.operand(35)
            return "where", f"np.where({c}, {a}, {b})", [a, b], {"cond": c}
        if kind == "moment":
            a = self.array()
            name = self.pick(["std", "var"])
            args = []
            rank = len(self.shapes[a])
            if rank and self.chance(60):
                args.append(f"axis={self.axis_text(rank, single=self.chance(50))}")
            if self.chance(40):
                args.append(f"ddof={self.pick([0, 1, 2])}")
            if self.chance(30):
                args.append("keepdims=True")
            text = f"np.{name}({', '.join([a] + args)})" if self.chance(50) else f"{a}.{name}({', '.join(args)})"
            return name, text, [a], None
        if kind == "view":
            a = self.array()
            form = self.pick(["{}[::-1]", "{}.T", "{}[1:]", "{}[:-2:3]", "{}.reshape(-1)", "{}[..., None]",
                              "np.expand_dims({}, 0)", "{}.ravel()", "{}[0]", "{}[-1, ...]",
                              "np.transpose({})", "{}.squeeze()", "{}[None, ::2]"])
            return "view", form.format(a), [a], None
        if kind == "clip":
            a = self.array()
            lo = self.pick([self.operand(60)] * 3 + ["None"])
            hi = self.pick([self.operand(60)] * 3 + ["None"])
            text = f"np.clip({a}, {lo}, {hi})" if self.chance(60) else f"{a}.clip({lo}, {hi})"
            return "clip", text, [a] + [b for b in (lo, hi) if b != "None"], None
        if kind == "assign":
            return self.assignment()
        if kind == "astype":
            a = self.array()
            dt = self.pick(DTYPES)
            spelled = self.pick([f"np.{dt}" if dt != "bool" else "np.bool_", repr(dt),
                                 f"np.dtype({dt!r})"])
            return "astype", f"{a}.astype({spelled})", [a], None
        if kind == "nested" and len(self.shapes[self.live[-1]]) == 2:
            # An argmin or argmax over one axis of a sum or norm over the
            # last, with work between (k-means' labels, spelled in the ways
            # programs spell them), of a 2-d value against its own rows.
            a = self.live[-1]
            k = self.integer(1, 4)
            name = self.pick(["argmin", "argmax"])
            form = self.pick([
                "np.{f}(np.linalg.norm({a} - {a}[:{k}, None], axis=2), axis=0)",
                "np.{f}((({a}[:, None] - {a}[None, :{k}]) ** 2).sum(2), 1)",
                "np.sqrt((({a} - {a}[:{k}, None]) ** 2).sum(axis=-1)).{f}(0)",
                "(np.abs({a}[:, None] - {a}[None, -{k}:]).sum(axis=2) * 0.5).{f}(axis=1)",
            ])
            return name, form.format(f=name, a=a, k=k), [a], None
        if kind == "reduce" or kind == "nested":
            a = self.array()
            rank = len(self.shapes[a])
            name, text, scale_kw = self.reduction(a, rank)
            return name, text, [a], (a, scale_kw)
        if kind == "norm":
            a = self.array()
            return "norm", self.norm(a, len(self.shapes[a])), [a], None
        # in place: the target becomes the new node, and is used no more under its old name
        sym = self.pick(INPLACE_OPERATORS)
        target = self.array()
        b = self.operand(40)
        return BINARY_OPERATORS[sym], (target, sym, b), [target, b], "inplace"


def _assignment_lines(name, text):
    """The source of assignment `text` (target, index, value; @ standing for
    the operation's name) as operation `name`."""
    target, index, value = (part.replace("@", name) for part in text)
    return [f"{name} = {target}", f"{name}[{index}] = {value}"]


def _shape_dtype(value):
    a = np.asarray(value)
    return a.dtype.name, a.shape


def _value_bound(builder, name):
    if name in builder.bounds:
        return builder.bounds[name], builder.dtypes[name]
    return ("E",), "int64"


def _value_info(builder, name):
    bound, dtype = _value_bound(builder, name)
    return bound, dtype, name in builder.tainted


# Broadcasting a view like x[..., None] against x makes an outer product:
# operations whose operands broadcast beyond this many elements are drawn
# again rather than run (the stand-ins would be that big too).
MAX_BROADCAST_ELEMENTS = 1 << 22


def _broadcast_too_big(builder, text):
    source = text if isinstance(text, str) else f"{text[0]} {text[2]}"
    shapes = [builder.shapes[n] for n in NAME.findall(source) if n in builder.shapes]
    try:
        return math.prod(np.broadcast_shapes(*shapes)) > MAX_BROADCAST_ELEMENTS
    except ValueError:
        return False


@st.composite
def programs(draw):
    b = _Builder(draw)
    seed = draw(st.integers(0, 2**32 - 1))
    full = b.full_shape()
    n_inputs = draw(st.integers(1, 4))
    same_dtype = b.chance(35)
    first_dtype = b.pick(DTYPES)
    inputs = []
    env = {}
    b.live, b.shapes, b.dtypes, b.bounds, b.tainted = [], {}, {}, {}, set()
    for k in range(n_inputs):
        dtype = first_dtype if (k == 0 or same_dtype) else b.pick(DTYPES)
        inp = b.make_input(f"a{k}", full, k == 0, dtype)
        inputs.append(inp)
        dummy = np.ones(inp.shape if inp.view != "bcast" else (), dtype=dtype)
        if inp.view == "bcast":
            dummy = np.broadcast_to(dummy, inp.shape)
        elif inp.view == "scalar":
            dummy = dummy[()]
        env[inp.name] = dummy
        b.live.append(inp.name)
        b.shapes[inp.name] = inp.shape
        b.dtypes[inp.name] = dtype
        b.bounds[inp.name] = ("E",)

    nodes = []
    used = set()
    # (the larger of two draws: Hypothesis favours small integers)
    n_ops = max(draw(st.integers(1, 12)), draw(st.integers(1, 12)))
    ended_by_error = False
    for k in range(n_ops):
        name = f"t{k}"
        accepted = None
        for _attempt in range(6):
            op, text, operands, extra = b.one_op()
            if _broadcast_too_big(b, text):
                continue
            reduce_info = None
            condition = None
            if isinstance(extra, dict) and "cond" in extra:  # where: its condition
                condition = _value_info(b, extra["cond"])
                extra = None
            try:
                if isinstance(extra, dict):  # t[index] = value into the target's value
                    lines = _assignment_lines(name, text)
                    local = dict(env)
                    t = env[operands[0]]
                    local[name] = t.copy() if isinstance(t, np.ndarray) and t.flags.writeable else t
                    _quiet_exec(lines[1], local)
                    value = local[name]
                    dtype, shape = _shape_dtype(value)
                    # The result is where(changed, value as t's dtype, t).
                    target_info = _value_info(b, operands[0])
                    source_bound, source_dtype, source_taint = _value_info(b, extra["source"])
                    mid = combine_bound("astype", [(source_bound, source_dtype)], dtype)
                    mid_taint = tainted("astype", [(source_bound, source_dtype, source_taint)], dtype)
                    if extra["scaled"]:
                        mid = combine_bound("multiply", [(mid, dtype)], dtype)
                    changed = _value_info(b, extra["assign"]) if extra["assign"] else None
                    bound = combine_bound("where", [target_info[:2], (mid, dtype)], dtype)
                    taint = tainted("where", [target_info, (mid, dtype, mid_taint)], dtype, changed)
                elif extra == "inplace":
                    target, sym, rhs = text
                    lines = [f"{name} = {target}", f"{name} {sym}= {rhs}"]
                    plain = _quiet_eval(f"{target} {sym} {rhs}", env)
                    local = dict(env)
                    t = env[target]
                    local[name] = t.copy() if isinstance(t, np.ndarray) and t.flags.writeable else t
                    _quiet_exec(f"{name} {sym}= {rhs}", local)
                    value = local[name]
                    plain_dtype = _shape_dtype(plain)[0]
                    mid = combine_bound(op, [_value_bound(b, o) for o in operands], plain_dtype)
                    dtype, shape = _shape_dtype(value)
                    bound = combine_bound("astype", [(mid, plain_dtype)], dtype)
                    taint = tainted(op, [_value_info(b, o) for o in operands], plain_dtype)
                    taint = taint or tainted("astype", [(mid, plain_dtype, False)], dtype)
                else:
                    if extra is not None:
                        reduce_info = extra
                    lines = [f"{name} = {text}"]
                    value = _quiet_eval(text, env)
                    dtype, shape = _shape_dtype(value)
                    reduced = 1
                    if op in SUM_OPS:
                        src = np.asarray(env[operands[0]])
                        reduced = src.size // max(np.asarray(value).size, 1) if src.size else 0
                    # (where's operands here are its 2nd and 3rd arguments)
                    bound = combine_bound(op, [_value_bound(b, o) for o in operands], dtype,
                                          reduced)
                    taint = tainted(op, [_value_info(b, o) for o in operands], dtype, condition)
                accepted = (op, lines, value, dtype, shape, bound, False, reduce_info, operands,
                            extra, taint)
                break
            except Exception:  # noqa: BLE001 - any failure NumPy reports is a valid program end
                if b.chance(20):
                    if isinstance(extra, dict):
                        lines = _assignment_lines(name, text)
                    elif extra == "inplace":
                        lines = [f"{name} = {text[0]}", f"{name} {text[1]}= {text[2]}"]
                    else:
                        lines = [f"{name} = {text}"]
                    accepted = (op, lines, None, "", (), ("E",), True, None, operands, extra,
                                False)
                    break
        if accepted is None:
            break
        op, lines, value, dtype, shape, bound, fails, reduce_info, operands, extra, taint = accepted
        node = Node(name, lines, op, bound, dtype, shape, fails)
        if reduce_info and op in ("sum", "mean") and bound[0] == "S":
            src, kw = reduce_info
            fn = "np.sum" if op == "sum" else "np.mean"
            node.reduce_call = (f"{fn}(np.abs(np.asarray({src}, dtype=np.float64))"
                                f"{', ' + kw if kw else ''})")
        if op == "astype" and bound[0] == "I" and extra is None:
            # The floats converted, for the integers' tolerance (int:K:T).
            node.reduce_call = f"np.asarray({operands[0]}, dtype=np.float64)"
        nodes.append(node)
        used.update(_reads(name, lines))
        if fails:
            ended_by_error = True
            break
        env[name] = value
        if extra == "inplace" or isinstance(extra, dict):
            target = operands[0]
            b.live.remove(target)
        b.live.append(name)
        b.shapes[name] = shape
        b.dtypes[name] = dtype
        b.bounds[name] = bound
        if taint:
            b.tainted.add(name)

    if not nodes:
        # Nothing could be built: one plain operation that always works.
        nodes.append(Node("t0", ["t0 = a0 == a0"], "equal", ("E",), "bool", inputs[0].shape))

    if ended_by_error:
        results = [nodes[-1].name]
    else:
        live_nodes = [n.name for n in nodes if n.name in b.live]
        sinks = [n for n in live_nodes if n not in used] or [nodes[-1].name]
        results = sinks[-3:]
        others = [n for n in live_nodes if n not in results]
        if others and b.chance(30):
            results.insert(0, b.pick(others))
    by_name = {n.name: n for n in nodes}
    tags, scales = [], []
    for r in results:
        node = by_name[r]
        tags.append(tag_of(node.bound, node.name in b.tainted))
        scales.append(node.reduce_call if (node.bound[0] in ("S", "I") and node.reduce_call) else None)
    mode = b.pick(["ignore"] * 7 + ["default"] * 2 + ["inner"])
    calls = 2 if b.chance(15) else 1
    return Program(seed, inputs, nodes, results, tags, scales, mode, calls)


HEADER = '''\
# Generated by tests/property/program_gen.py: random NumPy programs, each run
# by _run; every line of output names the program's index.
import base64
import hashlib
import sys

import numpy as np

# Indices of programs whose results are printed in full, whatever their size.
_FULL = {int(a) for a in sys.argv[1].split(",") if a} if len(sys.argv) > 1 else set()
_INLINE_BYTES = 2048
_PROGRAMS = []


def _data(rng, shape, dtype, kind):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return np.asarray(rng.random(shape) < {"half": 0.5, "rare": 0.05, "most": 0.95}[kind])
    if dt.kind in "iu":
        info = np.iinfo(dt)
        if kind == "small":
            lo, hi = (-4, 4) if dt.kind == "i" else (0, 5)
        elif kind == "mid":
            lo, hi = max(int(info.min), -100), min(int(info.max), 100)
        else:
            lo, hi = int(info.min), int(info.max)
        return np.asarray(rng.integers(lo, hi, size=shape, dtype=dt, endpoint=True))
    if kind == "ints":
        x = rng.integers(-4, 4, size=shape, endpoint=True).astype(dt)
    elif kind == "wide":
        lim = 300 if dt == np.float64 else 35
        x = (np.sign(rng.standard_normal(shape)) * 10.0 ** rng.uniform(-lim, lim, shape)).astype(dt)
    else:
        x = (rng.standard_normal(shape) * 3).astype(dt)
    if kind == "special":
        specials = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0])
        pick = rng.integers(0, len(specials), size=shape)
        x = np.where(rng.random(shape) < 0.1, specials[pick], x).astype(dt)
    return np.asarray(x)


def _dims(t):
    return ",".join(str(d) for d in t) if t else "-"


def _layout(a):
    # The strides of the dimensions that have some (those of length 1 are
    # free, and nothing is laid out in an empty array).
    if a.size == 0:
        return "empty"
    return _dims(tuple(s if n > 1 else "*" for s, n in zip(a.strides, a.shape)))


def _record(letter, i, c, j, tag, r):
    a = np.asarray(r)
    b = a.tobytes()
    digest = hashlib.blake2b(b, digest_size=12).hexdigest()
    payload = b.hex() if (len(b) <= _INLINE_BYTES or i in _FULL) else "-"
    print(f"{letter} {i} {c} {j} {tag} {type(r).__name__} {a.dtype.name} {_dims(a.shape)} "
          f"{_layout(a)} {digest} {payload or '='}")


def _emit(i, c, tags, out):
    results, scales = out
    for j, r in enumerate(results):
        _record("R", i, c, j, tags[j], r)
        if scales[j] is not None:
            _record("S", i, c, j, "scale", scales[j])


def _run(i, make, prog, tags, mode, calls):
    sys.stderr.write(f"@@ {i}\\n")
    print(f"B {i}")
    try:
        for c in range(calls):
            with np.errstate(all="ignore"):
                args = make()
            if mode == "ignore":
                with np.errstate(all="ignore"):
                    _emit(i, c, tags, prog(*args))
            else:
                _emit(i, c, tags, prog(*args))
    except Exception as e:
        print(f"E {i} {type(e).__name__} {str(e)!r}")
    print(f"Z {i}")
    sys.stdout.flush()
    sys.stderr.flush()


'''

FOOTER = '''
for _p in _PROGRAMS:
    _run(*_p)
'''


def render_script(indexed_programs):
    """A script running the (index, program) pairs in order."""
    parts = [HEADER]
    for index, program in indexed_programs:
        parts.append(program.render(index))
        parts.append("\n")
    parts.append(FOOTER)
    return "".join(parts)
