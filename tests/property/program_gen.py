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
                kernels compute through NumPy's own inner loops; complex
                values computed from exact ones (each part bitwise, NaN
                payloads aside): by + - * /, negation, squares and np.abs,
                which npython's kernels compute by NumPy's own formulas,
                and by the functions NumPy computes (exp, sqrt, conj,
                complex **, min/max, astype...)
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
                ulps of float16); a complex sum's difference in magnitude,
                its scale the sum of |real part| + |imaginary part|
  prod:N:K      within 2 (N + 2 + N K) eps relative (complex: 3 for 2, in
                magnitude)
  norm:N:K      within 2 (N + 2 + 2 K) eps relative
  err           a float computed from a float sum (mean, norm, std...) by
                element-wise operations and further reductions (x -
                x.mean(0), a softmax, a sum of sums): within a bound on its
                error the program computes alongside, in float64, and also
                returns (e_<name> = _err(...): a running error analysis, each
                operation's own rounding in both interpreters plus what it
                makes of its operands' bounds, see _ERR in the script's
                header); an absolute bound, since a cancellation (x -
                x.mean(0) of constant rows) leaves a sum's error whole where
                the result is nothing but that error; not compared where it
                is not finite (a value that may overflow, be a NaN, or divide
                by what may be 0)
  approx:B      any other float result computed from inexact values (after
                a cancellation, say), and complex ones (no ulps bound the parts
                of a complex product or sum, nor is an error bound written for
                them) that continuous operations (+ - * /, np.abs, parts, sums)
                make of inexact values: rtol 1e-2 / 1e-4 / 1e-10 for B = 2 / 4
                / 8, the size of the least precise float type the error comes
                from, plus the same times the largest magnitude in the result
                as atol (complex: in magnitude)
  unchecked     floats that sin, cos, ** or // and % make of inexact values
                (which can enlarge an ulp of error without bound), and what
                other complex functions (exp, sqrt and log, lexicographic
                min/max, **) make of inexact complex values: only the type,
                dtype, shape and layout are compared
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
An operation is an element-wise one, a reduction, a view, an assignment...
of earlier values, or one of these, over random axis sets (one axis,
negative, a tuple of several, None; kept dimensions or not), which may write
operations inside one another (its tag comes from each of them, see
_analyse):
  nested        a reduction (sum, mean, min, max, prod, argmin, argmax, any,
                all, std, var, norm) of a value computed from a reduction,
                an earlier one or one written inside (x.sum(0).max(-1),
                np.mean(x - x.mean((0, 2), keepdims=True), axis=1)), or
                k-means' labels (argmin over one axis of a norm or sum)
  consumer      an element-wise operation (- / * +, np.maximum, where, a
                comparison) of a value and a reduction of it broadcast back
                (keepdims, [:, None], [..., None], np.expand_dims, leading
                axes reduced)
  chain         softmax and log-softmax (x - x.max(ax, keepdims=True), its
                exp, divided by its sum), centred squares reduced ((x -
                x.mean(0)) ** 2 then .sum(0)), z-scores, division by a norm,
                min-max scaling, as one operation or several in a row
  complex       (in a fifth of the programs: see _program) of complex128
                values, the inputs' (most of them; their parts drawn apart,
                some infinite, NaN, zeros of either sign, 1e308 or
                subnormal) or made of real ones, with complex values, real
                ones of any dtype, Python complex or np.complex128 scalars:
                + - * / (operators, np.add ... np.true_divide), negation,
                z ** 2, np.square, np.abs, .real and .imag, written inside
                one another (np.abs(z) > 2, z * z + c, 1.0 / (z - c),
                np.abs(z).sum(1), z.real * 2 + z.imag), ones NumPy computes
                (np.exp, np.conj, z ** 3, comparisons, astype(np.complex64))
                or refuses (z // w, z % 2), and the other kinds above of
                complex values and of their real parts (sums, views, where,
                assignments, softmax...)
Of the test's 6000 programs for the default seed, 2357 have a nested
reduction, 2108 a reduction consumer, 1033 complex values and 425 a
masked update (the test counts them, see Program.patterns,
Program.touches_complex and Program.has_masked_update).
About 60% of the programs have an input of 2048 elements or more (npython
traces operations on those), some beyond 32768 (where its kernels use several
threads); the others are small (down to 0-d and empty); inputs have up to 4
dimensions. A program computes the scales and error bounds of its results
right after each operation they come from, or (70%), where no later
operation changes a value in place, after its last. The programs run
under np.errstate(all='ignore') (70%), with NumPy's default error handling
(20%: RuntimeWarnings go to stderr), or with np.errstate(all='ignore') inside
the function and the results looked at outside it (10%); 15% call the
function twice.
"""
import ast
import functools
import math
import re
import warnings
from dataclasses import dataclass, field, replace

import numpy as np
from hypothesis import strategies as st

MASKED_UPDATE_TEXT = re.compile(r"(\w+)\[(.+)\] = \1\[\2\] ")

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
# (power2: x ** 2 with a literal 2)
NUMPY_LOOP_OPS = {"exp", "log", "sin", "cos", "tanh", "arctan2", "power", "power2"}
SUM_OPS = {"sum", "prod", "mean", "norm"}
# Operations that can enlarge an error of their operands without bound (sin
# and cos of a large argument, x ** y, the quotient of // and %): what they
# make of an inexact value is not compared.
AMPLIFYING_OPS = {"sin", "cos", "power", "power2", "floor_divide", "remainder"}
DISCONTINUOUS_OPS = {"floor", "ceil", "trunc", "rint", "floor_divide", "remainder", "less",
                     "less_equal", "equal", "not_equal", "greater", "greater_equal", "isnan",
                     "isfinite", "argmin", "argmax", "any", "all", "logical_and", "logical_not",
                     "bitwise_and", "bitwise_or", "bitwise_xor", "invert"}
REDUCE_OPS = {"sum", "prod", "min", "max", "mean", "argmin", "argmax", "any", "all", "std", "var",
              "norm"}
# Operations whose error bound a program computes alongside (tag err, see
# error_text) where an operand is a float sum or computed from one.
ERR_OPS = {"add", "subtract", "multiply", "divide", "square", "power2", "sqrt", "exp", "log",
           "tanh", "sin", "cos", "negative", "positive", "absolute", "floor", "ceil", "trunc",
           "rint", "minimum", "maximum", "fmin", "fmax", "clip", "where", "astype", "view", "sum",
           "mean", "min", "max", "norm", "std", "var"}
# Operations whose results move continuously with their complex operands:
# what they make of inexact ones is within approx's tolerances (relative to
# the values' magnitudes); what the others make of them (x ** y, exp's cosine
# of a large imaginary part, sqrt's and log's branch cut, lexicographic min
# and max...) is not compared.
COMPLEX_CONTINUOUS_OPS = {"add", "subtract", "multiply", "divide", "negative", "positive",
                          "absolute", "square", "conjugate", "view", "where", "astype", "sum",
                          "mean", "prod", "norm", "std", "var"}
# Reductions the nested and consumer kinds take (with an axis set).
NESTED_REDUCTIONS = ["sum", "sum", "mean", "mean", "min", "max", "max", "prod", "argmin", "argmax",
                     "any", "all", "std", "var", "norm"]
CONSUMED_REDUCTIONS = ["max", "max", "min", "sum", "sum", "mean", "mean", "norm", "std", "var",
                       "prod"]

# Python and NumPy scalars as operands (text as written in the program).
PY_INT_SCALARS = ["0", "1", "2", "3", "-1", "-3", "7", "100", "255", "300", "-129", "65536",
                  "(2**31)", "(2**63 - 1)", "(-2**63)", "(2**64)"]
PY_FLOAT_SCALARS = ["0.5", "-1.5", "2.0", "0.0", "-0.0", "1e-3", "3.75", "1e300",
                    "float('inf')", "float('nan')"]
PY_BOOL_SCALARS = ["True", "False"]
NP_SCALARS = ["np.int8(-3)", "np.uint8(200)", "np.int16(1000)", "np.uint16(7)", "np.int32(-7)",
              "np.uint32(4000000000)", "np.int64(5)", "np.uint64(2**63)", "np.float32(0.25)",
              "np.float32(-2.5)", "np.float64(1.5)", "np.float64(-0.0)", "np.bool_(True)"]
# (in programs with complex values only: see _program)
COMPLEX_SCALARS = ["1j", "(2-3j)", "(0.5+0j)", "-2j", "complex(-0.0, 1.5)", "complex(0.0, -0.0)",
                   "complex(float('inf'), 1.0)", "complex(1.0, float('nan'))", "1e308j",
                   "(1e-310+1j)", "np.complex128(1.5-2j)", "np.complex128(-0.0)",
                   "np.complex128(3j)", "np.complex128(complex(float('-inf'), 0.5))"]

NAME = re.compile(r"\b[at]\d+\b")
ERR_NAME = re.compile(r"\be_(t\d+)\b")   # the error bound of a value t<k>
COMPLEX_TEXT = re.compile(r"\dj\b|complex")   # complex scalars, casts to complex types

# Big enough for npython to trace them (2048+ elements), some beyond 32768
# (where its kernels start using several threads).
# The last five: sums of 128 times a power of two elements, which kernels
# add leaf by leaf.
BIG_SHAPES = [(200, 150), (150, 200), (24000,), (20000,), (30, 40, 20), (2, 100, 120),
              (128, 160), (25, 30, 30), (160, 1, 128), (300, 200), (50000,), (40, 40, 40),
              (8, 10, 12, 24), (6, 1, 30, 120), (256, 1, 300), (16384,), (32, 256), (64, 8, 16),
              (4, 32, 128), (2, 64, 4, 64)]


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
    err: str = ""           # for float sums and what is computed from them: the source of
                            # a bound on their error (written e_<name> = ...)
    patterns: frozenset = frozenset()   # nested reduction, reduction consumer (see _analyse)

    def refs(self):
        """Names of the inputs and operations this one reads (its error
        bound's too)."""
        found = _reads(self.name, self.lines) | set(NAME.findall(self.err)) | \
            set(ERR_NAME.findall(self.err))
        found.discard(self.name)
        return found

    def mutates(self):
        """Whether it changes a value in place (t = a; t += b; t[i] = v)."""
        return len(self.lines) > 1


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
    mode: str                # ignore | default | inner | raise | record (_run)
    calls: int
    notes: list = field(default_factory=list)
    late: bool = False       # scales and error bounds computed after the last operation
                             # (where no later one changes values in place), not each
                             # right after its own: a computation npython traces whole

    def patterns(self):
        return frozenset().union(*(n.patterns for n in self.nodes))

    def has_masked_update(self):
        """Whether it assigns values under a mask computed from the same
        values under that mask (t[m] = t[m] * u[m])."""
        return any(MASKED_UPDATE_TEXT.match(line) for n in self.nodes for line in n.lines)

    def is_big(self):
        return any(math.prod(i.shape) >= 2048 for i in self.inputs)

    def touches_complex(self):
        """Whether it has complex inputs, values or scalars."""
        return any(is_complex(i.dtype) for i in self.inputs) or \
            any(n.dtype and is_complex(n.dtype) for n in self.nodes) or \
            any(COMPLEX_TEXT.search(line) for n in self.nodes for line in n.lines)

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
        by_name = {n.name: n for n in self.nodes}
        bounded = [r for r in results if by_name[r].bound[0] == "B"]
        # Error bounds needed: the results', and those theirs are computed from.
        needed = set()
        while bounded:
            r = bounded.pop()
            if r not in needed:
                needed.add(r)
                bounded.extend(ERR_NAME.findall(by_name[r].err))
        tail = []
        for k, node in enumerate(self.nodes):
            for line in node.lines:
                out.append(indent + line)
            after = [f"e_{node.name} = {node.err}"] if node.name in needed else []
            if node.name in scale_of:
                after.append(f"s_{node.name} = {scale_of[node.name]}")
            # Right after the operation where a later one may change what
            # they read in place.
            late = self.late and not any(n.mutates() for n in self.nodes[k + 1:])
            (tail if late else out).extend(indent + line for line in after)
        out.extend(tail)
        scale_text = [f"e_{r}" if r in needed else f"s_{r}" if r in scale_of else "None"
                      for r in results]
        out.append(f"    return [{', '.join(results)}], [{', '.join(scale_text)}]")
        out.append("")
        out.append(f"_PROGRAMS.append(({index}, make{index}, prog{index}, {tags!r}, "
                   f"{self.mode!r}, {self.calls}))")
        return "\n".join(out) + "\n"


def finfo_eps(dtype):
    return float(np.finfo(dtype).eps)


def is_float(dtype):
    """Floating point: real or complex (two floats)."""
    return np.dtype(dtype).kind in "fc"


def is_complex(dtype):
    return np.dtype(dtype).kind == "c"


def float_size(dtype):
    """The size of dtype's floats (a complex value's parts)."""
    return np.dtype(dtype).itemsize // (2 if is_complex(dtype) else 1)


def convert_ulps(k, from_dtype, to_dtype):
    """k ulps of from_dtype as ulps of to_dtype (rounded up)."""
    if k == 0 or not is_float(from_dtype) or not is_float(to_dtype):
        return k
    return int(math.ceil(k * finfo_eps(from_dtype) / finfo_eps(to_dtype)))


def combine_bound(op, operands, out_dtype, reduced=1, err_ok=False):
    """Error bound of an operation's result from its operands' bounds:
    ("E",) exact, ("R", k, b) within k ulps of out_dtype, ("S", op, n, k) a
    float or complex sum, ("B",) within the bound the program computes
    alongside (see error_text), ("A", b) approximate, ("U",) unbounded; b is
    the size of the least precise float type the error comes from (of a
    complex type: its parts' floats); ("I", k, t) integers
    converted from floats of type t within k ulps (used as exact, and
    tainted, by what reads them).
    operands: list of (bound, dtype) of the value operands; err_ok: whether
    the error bound of the result can be written (op in ERR_OPS, every
    operand's known)."""
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
    complex_ = any(is_complex(dt) for _, dt in operands) or is_complex(out_dtype)
    if err_ok and not complex_ and any(b[0] in "SB" for b in bounds) and \
            all(b[0] in "ERSB" for b in bounds):
        # A sum's error is an absolute one (a cancellation leaves it whole,
        # x - x.mean(0) say), which no tolerance relative to the result
        # bounds: the program computes it.
        return ("B",)
    if inexact and op in ("floor", "ceil", "trunc", "rint") and all(b[0] in "ER" for b in bounds):
        # Equal unless a value lies near an integer (see tainted()), or is
        # an integer already (beyond 2**23 in float32): its ulps pass through
        # (an approximate value stays approximate, below).
        k = max(convert_ulps(b[1], dt, out_dtype) if b[0] == "R" else 0 for b, dt in operands)
        return ("R", k, min(b[2] for b in bounds if b[0] == "R"))
    if inexact and op in AMPLIFYING_OPS:
        return ("U",)
    origin = min([float_size(out_dtype)] +
                 [float_size(dt) for b, dt in operands if b[0] != "E" and is_float(dt)] +
                 [b[2] for b in bounds if b[0] == "R"] + [b[1] for b in bounds if b[0] == "A"])
    approx = ("A", origin)
    if inexact and complex_:
        # No ulps bound a complex value's parts (those of a product or a sum
        # may cancel), nor is an error bound written for one.
        return approx if op in COMPLEX_CONTINUOUS_OPS else ("U",)
    if any(b[0] in ("A", "S", "B") for b in bounds):
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


@functools.lru_cache(maxsize=4096)
def primary(text):
    """text, parenthesised unless Python reads it as one term (a name, call,
    attribute or subscript) before a method call, subscript or operator."""
    body = ast.parse(text, mode="eval").body
    return text if isinstance(body, (ast.Name, ast.Call, ast.Attribute, ast.Subscript)) else f"({text})"


def _err_call(rule, *args):
    return f"_err({rule!r}, {', '.join(str(a) for a in args)})"


def error_text(op, result, args, details, reduced):
    """Source of a bound on the difference of two computations of `result`
    (the text of a value computed by op) whose operands differ within their
    own bounds: what op makes of those, plus op's own rounding in each (see
    _ERR in the script's header: bounds for any operands within theirs, the
    roundings taken at the reference's magnitudes).
    args: (text, bound, error bound's text: "0" for an exact value) of the
    value operands; details: the operation's (its reduction's keywords, the
    condition of where, the view applied); reduced: elements per reduced one."""
    texts = [t for t, _, _ in args]
    errs = [e for _, _, e in args]
    kw = [details["kw"]] if details.get("kw") else []
    if op in ("add", "subtract"):
        return _err_call("add", result, errs[0], errs[1])
    if op == "astype":
        return _err_call("add", result, errs[0], 0)
    if op in ("multiply", "divide"):
        return _err_call(op, result, texts[0], errs[0], texts[1], errs[1])
    if op in ("square", "power2"):
        # (x ** 2 may be NumPy's power function: within an ulp, not half of one)
        return _err_call("square", result, texts[0], errs[0], 1 if op == "square" else 2)
    if op in ("sqrt", "exp", "log", "tanh"):
        return _err_call(op, result, texts[0], errs[0])
    if op in ("sin", "cos"):
        return _err_call("sincos", result, texts[0], errs[0])
    if op in ("negative", "positive", "absolute", "floor", "ceil", "trunc", "rint"):
        # (floor and the like as if the discontinuity kept the value exact:
        # the tag's ~ says so)
        return _err_call("same", result, errs[0])
    if op == "view":
        return _err_call("same", result, details["view"].format(primary(errs[0])))
    if op in ("minimum", "maximum", "fmin", "fmax", "clip"):
        return _err_call("max", result, *errs)
    if op == "where":
        cond = details["cond"]
        return _err_call("where", result, cond if isinstance(cond, str) else cond.text, *errs)
    if op in ("sum", "mean"):
        return _err_call("sum", result, texts[0], errs[0], reduced, op == "mean", *kw)
    if op in ("min", "max"):
        return _err_call("max_of", result, texts[0], errs[0], *kw)
    if op == "norm":
        return _err_call("norm", result, texts[0], errs[0], reduced, *kw)
    if op in ("std", "var"):
        return _err_call("var", result, texts[0], errs[0], reduced, details.get("ddof", 0),
                         op == "std", *kw)
    # prod (of exact values or values within k ulps): its rule, prod:N:K
    bound = args[0][1]
    k = bound[1] if bound[0] == "R" else 0
    return _err_call("relative", result, 2 * (reduced + 2 + reduced * k), reduced)


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
    elif bound[0] == "B":
        tag = "err"
    elif bound[0] == "A":
        tag = f"approx:{bound[1]}"
    elif bound[0] == "I":
        tag = f"int:{max(bound[1], 1)}:{bound[2]}"
    else:
        tag = "unchecked"
    return tag + ("~" if taint else "")


@functools.lru_cache(maxsize=8192)
def _compiled(text, mode):
    return compile(text, "<program>", mode)


def _eval(expr, env):
    return eval(_compiled(expr, "eval"), {"np": np}, env)  # noqa: S307 - our own generated text


def _exec(code, env):
    exec(_compiled(code, "exec"), {"np": np}, env)  # noqa: S102 - our own generated text


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
            rank = self.integer(1, 4)
            if rank == 1:
                return (self.pick([self.integer(2048, 16383), self.integer(16384, 70000)]),)
            if rank == 2:
                a = self.integer(90, 300)
                return (a, -(-20000 // a) + self.integer(0, 150))
            if rank == 4:
                a, b, c = self.integer(2, 8), self.integer(2, 12), self.integer(5, 20)
                return (a, b, c, -(-20000 // (a * b * c)) + self.integer(0, 10))
            a = self.integer(2, 30)
            b = self.integer(10, 60)
            return (a, b, -(-20000 // (a * b)) + self.integer(0, 30))
        self.big = False
        rank = self.integer(0, 4)
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
        if kind == "c":
            return self.pick(["normal", "ints", "special", "special", "wide"])
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
             tuple(NP_SCALARS)] + [tuple(COMPLEX_SCALARS)] * (2 if self.complex else 0)))

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

    def valid_axes(self, rank, single=False):
        """A valid axis argument (text) and the axes it reduces (non-negative;
        None: all): one, negative, several in a tuple, or None."""
        choices = ["none"]
        if rank >= 1:
            choices += ["pos", "pos", "neg"]
            if not single:
                choices += ["tuple"] * (3 if rank >= 2 else 1)
        what = self.pick(choices)
        if what == "none":
            return "None", None
        if what == "pos":
            axis = self.integer(0, rank - 1)
            return str(axis), (axis,)
        if what == "neg":
            axis = -self.integer(1, rank)
            return str(axis), (axis + rank,)
        axes = self.draw(st.lists(st.integers(0, rank - 1), min_size=1, max_size=rank, unique=True))
        written = [a - rank if self.chance(30) else a for a in axes]
        return repr(tuple(written)), tuple(sorted(axes))

    def reduction(self, x, rank, name=None, axis=None, keep="draw"):
        """(name, text, keywords) of a reduction of x (text) of rank `rank`:
        name, axis (text) and keepdims (True, False, None: not written) drawn
        where not given."""
        name = name or self.pick(REDUCTIONS)
        single = name in ("argmin", "argmax")
        axis = axis or self.axis_text(rank, single)
        keep = self.pick([None, None, True, False]) if keep == "draw" else keep
        method = self.chance(50)
        args = []
        axis_given = axis != "None" or self.chance(30)
        positional = axis_given and self.chance(35)
        if axis_given:
            args.append(axis if positional else f"axis={axis}")
        if keep is not None:
            args.append(f"keepdims={keep}")
        if method:
            text = f"{primary(x)}.{name}({', '.join(args)})"
        else:
            fname = name
            if name in ("min", "max") and self.chance(40):
                fname = "a" + name
            text = f"np.{fname}({', '.join([x] + args)})"
        scale_kw = [f"axis={axis}"] if axis_given else []
        if keep is not None:
            scale_kw.append(f"keepdims={keep}")
        return name, text, ", ".join(scale_kw)

    def norm(self, x, rank, axis=None, keep="draw"):
        """(text, keywords) of np.linalg.norm of x (text)."""
        if axis is None:
            axis = self.axis_text(rank, single=True)
            if rank >= 2 and self.chance(20):
                axis = repr((0, rank - 1))  # matrix (Frobenius) norm over two axes
        kw = []
        if axis != "None" or self.chance(50):
            kw.append(f"axis={axis}")
        if (self.chance(30) if keep == "draw" else keep is not None):
            kw.append(f"keepdims={True if keep == 'draw' else keep}")
        return f"np.linalg.norm({', '.join([x] + kw)})", ", ".join(kw)

    def moment(self, x, rank, name=None, axis=None, keep="draw"):
        """(name, text, keywords but ddof, ddof) of std or var of x (text)."""
        name = name or self.pick(["std", "var"])
        kw = []
        if axis is None and rank and self.chance(60):
            axis = self.axis_text(rank, single=self.chance(50))
        if axis is not None:
            kw.append(f"axis={axis}")
        ddof = self.pick([0, 1, 2]) if self.chance(40) else None
        if (self.chance(30) if keep == "draw" else keep is not None):
            kw.append(f"keepdims={True if keep == 'draw' else keep}")
        args = kw + ([f"ddof={ddof}"] if ddof is not None else [])
        text = (f"np.{name}({', '.join([x] + args)})" if self.chance(50)
                else f"{primary(x)}.{name}({', '.join(args)})")
        return name, text, ", ".join(kw), ddof or 0

    def reduce_sub(self, x, rank, names, axis=None, keep="draw"):
        """A reduction (one of names) of x, a name or Sub of rank `rank`, over
        `axis` ((text, axes) from valid_axes; drawn where not given): (Sub,
        the result's rank, the axes reduced)."""
        name = self.pick(names)
        single = name in ("argmin", "argmax", "norm")
        if axis is None or (single and axis[0].startswith("(")):
            axis = self.valid_axes(rank, single)
            if name == "norm" and rank >= 2 and self.chance(20):
                axis = repr((0, -1)), (0, rank - 1)  # matrix (Frobenius) norm over two axes
        text = x if isinstance(x, str) else x.text
        details = {}
        if name == "norm":
            text, kw = self.norm(text, rank, axis[0], keep)
        elif name in ("std", "var"):
            _, text, kw, details["ddof"] = self.moment(text, rank, name, axis[0], keep)
        else:
            _, text, kw = self.reduction(text, rank, name, axis[0], keep)
        details["kw"] = kw
        kept = "keepdims=True" in kw
        out_rank = rank if kept else 0 if axis[1] is None else rank - len(axis[1])
        return Sub(name, text, (x,), details), out_rank, axis[1]

    def combined(self, v, r, boolean=False):
        """An element-wise operation of v and r (names or Subs)."""
        sym = self.pick(["-", "/", "*"] if boolean else
                        ["-", "-", "-", "/", "/", "*", "+", "np.subtract", "np.divide",
                         "np.maximum", "np.minimum", "where", "==", ">"])
        a, b = (v, r) if self.chance(80) else (r, v)
        ta, tb = (o if isinstance(o, str) else o.text for o in (a, b))
        if sym.startswith("np."):
            return Sub(sym[3:], f"{sym}({ta}, {tb})", (a, b))
        if sym == "where":
            cond = Sub("greater", f"{primary(ta)} > {primary(tb)}", (a, b))
            return Sub("where", f"np.where({cond.text}, {ta}, {tb})", (a, b), {"cond": cond})
        return Sub(BINARY_OPERATORS[sym], f"{primary(ta)} {sym} {primary(tb)}", (a, b))

    def consumer(self, v, rank, dtype):
        """An element-wise operation of v (a name or Sub) and a reduction of v
        over random axes broadcast back against it: kept dimensions,
        [:, None], [..., None], np.expand_dims, or leading axes reduced."""
        boolean = dtype == "bool"
        name = self.pick(["sum", "mean"] if boolean else CONSUMED_REDUCTIONS)
        axis = self.valid_axes(rank, single=name == "norm")
        axes = axis[1]
        forms = ["keepdims"] * 3
        if axes is not None:
            forms.append("expand")
        if axes is None or axes == tuple(range(len(axes))):
            forms.append("leading")
        if axes == (rank - 1,):
            forms.append("[..., None]")
        if rank == 2 and axes == (1,):
            forms.append("[:, None]")
        form = self.pick(forms)
        r, _, _ = self.reduce_sub(v, rank, [name], axis,
                                  keep=True if form == "keepdims" else self.pick([None, False]))
        if form == "expand":
            view = f"np.expand_dims({{}}, {axis[0]})"
            r = Sub("view", view.format(r.text), (r,), {"view": view})
        elif form.startswith("["):
            r = Sub("view", primary(r.text) + form, (r,), {"view": "{}" + form})
        return self.combined(v, r, boolean)

    def ranked(self, min_rank, names=None):
        """A live value of rank min_rank or more (the latest, often), or None."""
        names = [n for n in (self.live if names is None else names) if len(self.shapes[n]) >= min_rank]
        if not names:
            return None
        return names[-1] if self.chance(50) else self.pick(names)

    def kmeans(self, a):
        """An argmin or argmax over one axis of a sum or norm over the last,
        with work between (k-means' labels, spelled in the ways programs
        spell them), of a 2-d value against its own rows."""
        k = self.integer(1, 4)
        f = self.pick(["argmin", "argmax"])
        form = self.integer(0, 3)
        if form == 0:
            diff = Sub("subtract", f"{a} - {a}[:{k}, None]", (a, a))
            dist = Sub("norm", f"np.linalg.norm({diff.text}, axis=2)", (diff,), {"kw": "axis=2"})
            return Sub(f, f"np.{f}({dist.text}, axis=0)", (dist,), {"kw": "axis=0"})
        if form == 1:
            diff = Sub("subtract", f"{a}[:, None] - {a}[None, :{k}]", (a, a))
            square = Sub("power2", f"({diff.text}) ** 2", (diff, "2"))
            dist = Sub("sum", f"({square.text}).sum(2)", (square,), {"kw": "axis=2"})
            return Sub(f, f"np.{f}({dist.text}, 1)", (dist,), {"kw": "axis=1"})
        if form == 2:
            diff = Sub("subtract", f"{a} - {a}[:{k}, None]", (a, a))
            square = Sub("power2", f"({diff.text}) ** 2", (diff, "2"))
            total = Sub("sum", f"({square.text}).sum(axis=-1)", (square,), {"kw": "axis=-1"})
            dist = Sub("sqrt", f"np.sqrt({total.text})", (total,))
            return Sub(f, f"{dist.text}.{f}(0)", (dist,), {"kw": "axis=0"})
        diff = Sub("subtract", f"{a}[:, None] - {a}[None, -{k}:]", (a, a))
        dist = Sub("absolute", f"np.abs({diff.text})", (diff,))
        total = Sub("sum", f"{dist.text}.sum(axis=2)", (dist,), {"kw": "axis=2"})
        half = Sub("multiply", f"{total.text} * 0.5", (total, "0.5"))
        return Sub(f, f"({half.text}).{f}(axis=1)", (half,), {"kw": "axis=1"})

    def nested(self):
        """A reduction over random axes of a value computed from a reduction:
        an earlier one's, or one written inside (a reduction, an element-wise
        operation of one, a reduction consumer), or k-means' labels."""
        derived = [n for n in self.live if self.sources.get(n)]
        x = self.ranked(1, derived)
        if x is not None and self.chance(70):
            return self.reduce_sub(x, len(self.shapes[x]), NESTED_REDUCTIONS)[0]
        v = self.ranked(2) or self.ranked(1)
        if v is None:
            return None
        rank, dtype = len(self.shapes[v]), self.dtypes[v]
        if rank == 2 and self.chance(20):
            return self.kmeans(v)
        what = self.pick(["reduce", "reduce", "consumer", "elementwise"])
        if what == "consumer":
            inner, inner_rank = self.consumer(v, rank, dtype), rank
        else:
            axis = self.valid_axes(rank)
            keep = True if axis[1] is None or len(axis[1]) == rank else self.pick([None, True, False])
            inner, inner_rank, _ = self.reduce_sub(
                v, rank, ["sum", "mean", "max", "min", "std", "var", "norm", "prod"], axis, keep)
            if what == "elementwise":
                op, form, scalar = self.pick([
                    ("absolute", "np.abs({})", None), ("sqrt", "np.sqrt({})", None),
                    ("power2", "{} ** 2", "2"), ("exp", "np.exp({})", None),
                    ("multiply", "{} * 0.5", "0.5"), ("log", "np.log({})", None),
                    ("negative", "np.negative({})", None)])
                text = form.format(primary(inner.text) if scalar else inner.text)
                inner = Sub(op, text, (inner, scalar) if scalar else (inner,))
        return self.reduce_sub(inner, inner_rank, NESTED_REDUCTIONS)[0]

    def chain(self):
        """Reductions and their consumers as programs chain them: softmax,
        log-softmax, centred squares summed, z-scores, division by a norm,
        min-max scaling, over random axes; the first operation, the next
        ones planned (self.plan)."""
        v = self.ranked(1, [n for n in self.live if self.dtypes[n] != "bool"])
        if v is None:
            return None
        rank = len(self.shapes[v])
        axis = self.valid_axes(rank)
        what = self.pick(["softmax", "softmax", "log_softmax", "centred", "centred", "zscore",
                          "l2", "minmax", "scaled", "scaled"])
        if what in ("softmax", "log_softmax"):
            top, _, _ = self.reduce_sub(v, rank, ["max"], axis, keep=True)
            shifted = Sub("subtract", f"{v} - {top.text}", (v, top))

            def normalised():
                e = self.live[-1]
                if what == "softmax":
                    total, _, _ = self.reduce_sub(e, rank, ["sum"], axis, keep=True)
                    return Sub("divide", f"{e} / {total.text}", (e, total))
                exp = Sub("exp", f"np.exp({e})", (e,))
                total, _, _ = self.reduce_sub(exp, rank, ["sum"], axis, keep=True)
                log = Sub("log", f"np.log({total.text})", (total,))
                return Sub("subtract", f"{e} - {log.text}", (e, log))

            self.plan.append(normalised)
            return Sub("exp", f"np.exp({shifted.text})", (shifted,)) if what == "softmax" else shifted
        if what == "centred":
            leading = axis[1] is None or axis[1] == tuple(range(len(axis[1])))
            mean, _, _ = self.reduce_sub(v, rank, ["mean"], axis,
                                         keep=self.pick([True, None]) if leading else True)

            def squares_reduced():
                d = self.live[-1]
                square = [Sub("power2", f"{d} ** 2", (d, "2")),
                          Sub("multiply", f"{d} * {d}", (d, d)),
                          Sub("square", f"np.square({d})", (d,))][self.integer(0, 2)]
                again = axis if self.chance(60) else None
                return self.reduce_sub(square, rank, ["sum", "sum", "mean", "max"], again)[0]

            self.plan.append(squares_reduced)
            return Sub("subtract", f"{v} - {mean.text}", (v, mean))
        if what == "zscore":
            mean, _, _ = self.reduce_sub(v, rank, ["mean"], axis, keep=True)
            std, _, _ = self.reduce_sub(v, rank, ["std"], axis, keep=True)
            centred = Sub("subtract", f"{v} - {mean.text}", (v, mean))
            return Sub("divide", f"({centred.text}) / {std.text}", (centred, std))
        if what == "scaled":
            # Arithmetic on the statistics themselves; over all axes they are
            # NumPy scalars, and this is NumPy's scalar math.
            over = ("None", None) if self.chance(60) else axis
            keep = self.pick([None, False]) if over[1] is None else True
            mean, _, _ = self.reduce_sub(v, rank, ["mean", "max"], over, keep=keep)
            spread, _, _ = self.reduce_sub(v, rank, ["std", "max", "min", "sum"], over, keep=keep)
            factor = self.pick(["2", "0.5", "-3.0"])
            scaled = Sub("multiply", f"{primary(mean.text)} * {factor}", (mean, factor))
            if self.chance(30):
                scaled = Sub("negative", f"-{primary(scaled.text)}", (scaled,))
            shifted = Sub("add", f"{primary(spread.text)} + 1.5", (spread, "1.5"))
            centred = Sub("subtract", f"{v} - {primary(scaled.text)}", (v, scaled))
            return Sub("divide", f"({centred.text}) / {primary(shifted.text)}", (centred, shifted))
        if what == "l2":
            norm, _, _ = self.reduce_sub(v, rank, ["norm"], None, keep=True)
            return Sub("divide", f"{v} / {norm.text}", (v, norm))
        low, _, _ = self.reduce_sub(v, rank, ["min"], axis, keep=True)
        high, _, _ = self.reduce_sub(v, rank, ["max"], axis, keep=True)
        above = Sub("subtract", f"{v} - {low.text}", (v, low))
        span = Sub("subtract", f"{high.text} - {low.text}", (high, low))
        return Sub("divide", f"({above.text}) / ({span.text})", (above, span))

    def assignment(self):
        """`t[index] = value` into the value t names (written @ until the
        operation has a name): a boolean mask, a basic index, a part of
        t assigned from another part of t (NumPy computes the value first),
        or a masked update of t's values under a mask from themselves and
        another array's under the same mask (`t[m] = t[m] * u[m]`)."""
        target = self.array()
        rank = len(self.shapes[target])
        form = self.pick(["mask", "mask", "part", "part", "self", "other", "update", "update"] if rank else ["part"])
        value = self.scalar()
        # What decides which elements change: a boolean value, or t itself.
        condition = None
        update = None
        if form == "update":
            masks = [m for m in self.live if self.dtypes[m] == "bool" and self.shapes[m] == self.shapes[target]]
            if masks and self.chance(70):
                index = condition = self.pick(masks)
            else:
                index = f"@ > {self.scalar()}"
                condition = target
            others = [a for a in self.live if a != target and self.shapes[a] == self.shapes[target]]
            other = self.pick(others) if others and self.chance(50) else None
            symbol = self.pick(["*", "+", "-", "/"])
            operand = f"{other}[{index}]" if other else self.scalar()
            value = f"@[{index}] {symbol} {operand}"
            update = (BINARY_OPERATORS[symbol], other, operand)
        elif form == "mask":
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
        operands = [target] + ([value] if value in self.live else []) + ([update[1]] if update and update[1] else [])
        source = target if value.startswith("@") else value
        return "setitem", (target, index, value), operands, {"assign": condition, "source": source,
                                                           "scaled": "*" in value, "update": update}

    def one_complex_value(self, v):
        """Whether `v` is a complex 0-d value or scalar, whose np.square is
        not drawn: NumPy's own square of one complex value depends on whether
        np.square ran before in the process (its first call rounds as its
        SIMD loop does, later ones apart), and npython, which squares arrays
        itself, may make it NumPy's first."""
        return self.shapes[v] == () and is_complex(self.dtypes[v])

    def complex_op(self):
        """An operation of a complex value (a live one, or a real one and a
        complex scalar where there is none): + - * / (operators and
        np.add... np.true_divide) with a complex or real value or scalar,
        negation, z ** 2, np.square, np.abs, a part (.real, np.imag...),
        such operations written inside one another (np.abs(z) > 2, z * z + c,
        1.0 / (z - c), np.abs(z).sum(axis)), or one that NumPy computes (or
        refuses: //, %)."""
        zs = [n for n in self.live if is_complex(self.dtypes[n])]
        if not zs:
            a, c = self.array(), self.pick(COMPLEX_SCALARS)
            return "multiply", f"{a} * {c}", [a, c], None
        z = zs[-1] if self.chance(50) else self.pick(zs)
        what = self.pick(["arith"] * 6 + ["unary"] * 3 + ["part"] * 2 + ["inside"] * 2 +
                         ["numpy"] * 2)
        if what == "arith":
            # The other operand: a complex scalar, a real one, or a value of any dtype.
            w = self.pick(COMPLEX_SCALARS) if self.chance(30) else self.operand(20)
            a, b = (z, w) if self.chance(65) else (w, z)
            if self.chance(60):
                sym = self.pick(["+", "-", "*", "/"])
                return BINARY_OPERATORS[sym], f"{a} {sym} {b}", [a, b], None
            name = self.pick(["add", "subtract", "multiply", "divide", "true_divide"])
            op = "divide" if name == "true_divide" else name
            return op, f"np.{name}({a}, {b})", [a, b], None
        if what == "unary":
            op, form = self.pick([("negative", "-{}"), ("negative", "np.negative({})"),
                                  ("positive", "+{}"), ("power2", "{} ** 2"),
                                  ("square", "np.square({})"), ("absolute", "np.abs({})"),
                                  ("absolute", "np.absolute({})"), ("absolute", "abs({})")])
            if op == "square" and self.one_complex_value(z):
                op, form = "negative", "np.negative({})"
            return op, form.format(z), [z, "2"] if op == "power2" else [z], None
        if what == "part":
            form = self.pick(["{}.real", "{}.imag", "np.real({})", "np.imag({})"])
            return "view", form.format(z), [z], {"view": form}
        if what == "numpy":
            w = self.pick(zs + COMPLEX_SCALARS)
            forms = [("exp", f"np.exp({z})", [z]), ("sqrt", f"np.sqrt({z})", [z]),
                     ("log", f"np.log({z})", [z]), ("tanh", f"np.tanh({z})", [z]),
                     ("conjugate", f"np.conj({z})", [z]), ("conjugate", f"{z}.conjugate()", [z]),
                     ("power", f"{z} ** 3", [z, "3"]), ("maximum", f"np.maximum({z}, {w})", [z, w]),
                     ("isnan", f"np.isnan({z})", [z]), ("equal", f"{z} == {w}", [z, w]),
                     ("less", f"{z} < {w}", [z, w]), ("floor_divide", f"{z} // {w}", [z, w]),
                     ("remainder", f"{z} % 2", [z, "2"]),
                     ("astype", f"{z}.astype(np.complex64)", [z]),
                     ("astype", f"{z}.astype(np.float64)", [z])]
            op, text, operands = forms[self.integer(0, len(forms) - 1)]
            return op, text, operands, None
        rank = len(self.shapes[z])
        c = self.pick(COMPLEX_SCALARS) if self.chance(50) else self.operand(20)
        magnitude = Sub("absolute", f"np.abs({z})", (z,))
        form = self.integer(0, 4)
        if form == 0:
            return _as_op(Sub("greater", f"{magnitude.text} > 2.0", (magnitude, "2.0")))
        if form == 1:
            return _as_op(self.reduce_sub(magnitude, rank, ["sum", "max", "mean", "min"])[0])
        if form == 2:
            square = Sub("multiply", f"{z} * {z}", (z, z))
            return _as_op(Sub("add", f"{square.text} + {c}", (square, c)))
        if form == 3:
            diff = Sub("subtract", f"{z} - {c}", (z, c))
            return _as_op(Sub("divide", f"1.0 / ({diff.text})", ("1.0", diff)))
        # The parts worked on as floats (docs/kernels.md's example).
        real = Sub("view", f"{z}.real", (z,), {"view": "{}.real"})
        imag = Sub("view", f"{z}.imag", (z,), {"view": "{}.imag"})
        twice = Sub("multiply", f"{real.text} * 2", (real, "2"))
        return _as_op(Sub("add", f"{twice.text} + {imag.text}", (twice, imag)))

    def one_op(self):
        """(op name, text, operands, extra) of the next operation: extra is
        "inplace" (text: target, operator, operand), an assignment's dict
        (see assignment), or the details of a Sub (operands: names, scalars'
        text, Subs)."""
        if self.plan:
            return _as_op(self.plan.pop(0)())
        kind = self.pick(["binop"] * 6 + ["ufunc2"] * 3 + ["ufunc1"] * 4 + ["where"] * 2 +
                         ["astype"] * 2 + ["reduce"] * 3 + ["norm", "unary", "inplace", "clip", "moment"] +
                         ["view"] * 2 + ["assign"] * 2 + ["nested", "consumer", "chain"] +
                         ["complex"] * (10 if self.complex else 0))
        if kind == "complex":
            return self.complex_op()
        if kind in ("nested", "consumer", "chain"):
            if kind == "consumer":
                v = self.ranked(1)
                sub = v and self.consumer(v, len(self.shapes[v]), self.dtypes[v])
            else:
                sub = self.nested() if kind == "nested" else self.chain()
            if sub is not None:
                return _as_op(sub)
            kind = "reduce"   # (no value of rank 1 or more)
        if kind == "binop":
            sym = self.pick(list(BINARY_OPERATORS))
            a, b = self.operand(), self.operand()
            if a not in self.live and b not in self.live:
                a = self.array()
            op = "power2" if sym == "**" and b in ("2", "2.0") else BINARY_OPERATORS[sym]
            return op, f"{a} {sym} {b}", [a, b], None
        if kind == "ufunc2":
            name = self.pick(BINARY_UFUNCS)
            a, b = self.operand(), self.operand()
            if a not in self.live and b not in self.live:
                b = self.array()
            return name, f"np.{name}({a}, {b})", [a, b], None
        if kind == "ufunc1":
            name = self.pick(UNARY_UFUNCS)
            a = self.array()
            if name == "square" and self.one_complex_value(a):
                name = "negative"
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
            name, text, kw, ddof = self.moment(a, len(self.shapes[a]))
            return name, text, [a], {"kw": kw, "ddof": ddof}
        if kind == "view":
            a = self.array()
            form = self.pick(["{}[::-1]", "{}.T", "{}[1:]", "{}[:-2:3]", "{}.reshape(-1)", "{}[..., None]",
                              "np.expand_dims({}, 0)", "{}.ravel()", "{}[0]", "{}[-1, ...]",
                              "np.transpose({})", "{}.squeeze()", "{}[None, ::2]"])
            return "view", form.format(a), [a], {"view": form}
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
        if kind == "reduce":
            a = self.array()
            name, text, kw = self.reduction(a, len(self.shapes[a]))
            return name, text, [a], {"kw": kw}
        if kind == "norm":
            a = self.array()
            text, kw = self.norm(a, len(self.shapes[a]))
            return "norm", text, [a], {"kw": kw}
        # in place: the target becomes the new node, and is used no more under its old name
        sym = self.pick(INPLACE_OPERATORS)
        target = self.array()
        b = self.operand(40)
        return BINARY_OPERATORS[sym], (target, sym, b), [target, b], "inplace"


def _as_op(sub):
    return sub.op, sub.text, list(sub.operands), sub.details


def _assignment_lines(name, text):
    """The source of assignment `text` (target, index, value; @ standing for
    the operation's name) as operation `name`."""
    target, index, value = (part.replace("@", name) for part in text)
    return [f"{name} = {target}", f"{name}[{index}] = {value}"]


@functools.lru_cache(maxsize=None)
def _dtype_name(dtype):
    return dtype.name   # (a property NumPy computes each time)


def _shape_dtype(value):
    a = np.asarray(value)
    return _dtype_name(a.dtype), a.shape


def _value_bound(builder, name):
    if name in builder.bounds:
        return builder.bounds[name], builder.dtypes[name]
    return ("E",), "int64"


def _value_info(builder, name):
    bound, dtype = _value_bound(builder, name)
    return bound, dtype, name in builder.tainted


@dataclass
class Sub:
    """An operation, written inside another's text or as a program's line
    (np.exp(x - x.max(1, keepdims=True)): exp of subtract of x and max):
    its bound comes from its operands' (names, scalars' text, Subs)."""
    op: str
    text: str
    operands: tuple
    details: dict = field(default_factory=dict)   # kw (a reduction's keywords), ddof,
                                                  # cond (where's), view (a format)


@dataclass
class _Info:
    value: object
    dtype: str
    bound: tuple
    taint: bool
    err: object              # source of its error bound ("0": exact), None if not written
    sources: frozenset       # the values (names, texts) it is computed from reductions of
    patterns: frozenset
    text: str


def _analyse(b, env, e, name=None):
    """The _Info of operand e (a name, a scalar's text or a Sub; name: the
    program's name for it). Patterns: a reduction of a value computed from
    a reduction ("nested reduction"), an element-wise operation of a value
    and a value computed from a reduction of it ("reduction consumer")."""
    if isinstance(e, str):
        if e not in b.bounds:   # a Python or NumPy scalar
            return _Info(None, "int64", ("E",), False, "0", frozenset(), frozenset(), e)
        bound = b.bounds[e]
        err = "0" if bound[0] in "EI" else _err_call("ulp", e, bound[1]) if bound[0] == "R" else \
            f"e_{e}" if e in b.errs else None
        return _Info(env[e], b.dtypes[e], bound, e in b.tainted, err, b.sources.get(e, frozenset()),
                     frozenset(), e)
    args = [_analyse(b, env, o) for o in e.operands]
    cond = e.details.get("cond")
    cond = _analyse(b, env, cond) if cond is not None else None
    if e.text not in b.values:   # (texts repeat: in an operation's operands, in later ones)
        # The operations inside it are computed already: their values stand
        # for their text (the longest first: one may hold another).
        text, local = e.text, dict(env)
        inner = [o for o in e.operands + (e.details.get("cond"),) if isinstance(o, Sub)]
        for k, o in enumerate(sorted(inner, key=lambda o: -len(o.text))):
            text = text.replace(o.text, f"_v{k}")
            local[f"_v{k}"] = b.values[o.text]
        b.values[e.text] = _eval(text, local)
    value = b.values[e.text]
    dtype, _ = _shape_dtype(value)
    reduced = 1
    if e.op in SUM_OPS or e.op in ("std", "var"):
        src = np.asarray(args[0].value)
        reduced = src.size // max(np.asarray(value).size, 1) if src.size else 0
    # (no error bound is written for complex values, nor for what is computed
    # from them: see combine_bound)
    complex_ = is_complex(dtype) or any(is_complex(a.dtype) for a in args)
    err_ok = e.op in ERR_OPS and not complex_ and all(a.err is not None for a in args)
    bound = combine_bound(e.op, [(a.bound, a.dtype) for a in args], dtype, reduced, err_ok)
    taint = tainted(e.op, [(a.bound, a.dtype, a.taint) for a in args], dtype,
                    (cond.bound, cond.dtype, cond.taint) if cond else None)
    result = name or primary(e.text)
    err = None
    if bound[0] in "EI":
        err = "0"
    elif bound[0] == "R":
        err = _err_call("ulp", result, bound[1])
    elif bound[0] in "SB" and not complex_:
        err = error_text(e.op, result, [(primary(a.text), a.bound, a.err) for a in args],
                         e.details, reduced)
    everything = args + ([cond] if cond else [])
    sources = frozenset().union(*(a.sources for a in everything))
    patterns = set().union(*(a.patterns for a in everything))
    if e.op in REDUCE_OPS:
        if args[0].sources:
            patterns.add("nested reduction")
        sources |= {args[0].text}
    elif e.op != "view" and any(a.text in c.sources for a in everything for c in everything):
        patterns.add("reduction consumer")
    return _Info(value, dtype, bound, taint, err, sources, frozenset(patterns), name or e.text)


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
    # (the stand-ins' floating-point errors, and NumPy's warnings of an empty
    # mean say, are no matter: the programs meet them as they run)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _program(draw)


def _program(draw):
    b = _Builder(draw)
    seed = draw(st.integers(0, 2**32 - 1))
    full = b.full_shape()
    n_inputs = draw(st.integers(1, 4))
    same_dtype = b.chance(35)
    first_dtype = b.pick(DTYPES)
    # A fifth of the programs work on complex values: complex inputs (most
    # of them), complex scalars and operations of their own (complex_op).
    b.complex = b.chance(20)
    inputs = []
    env = {}
    b.live, b.shapes, b.dtypes, b.bounds, b.tainted = [], {}, {}, {}, set()
    # (errs: the values with an e_ line; values: stand-ins by text)
    b.errs, b.sources, b.plan, b.values = set(), {}, [], {}
    for k in range(n_inputs):
        dtype = first_dtype if (k == 0 or same_dtype) else b.pick(DTYPES)
        if b.complex and b.chance(60 if k == 0 else 40):
            dtype = "complex128"
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
                b.plan.clear()
                continue
            err, patterns = "", frozenset()
            sources = frozenset().union(*(b.sources.get(o, frozenset()) for o in operands
                                          if isinstance(o, str)))
            try:
                if isinstance(extra, dict) and "assign" in extra:  # t[index] = value into the target's value
                    lines = _assignment_lines(name, text)
                    local = dict(env)
                    t = env[operands[0]]
                    local[name] = t.copy() if isinstance(t, np.ndarray) and t.flags.writeable else t
                    _exec(lines[1], local)
                    value = local[name]
                    dtype, shape = _shape_dtype(value)
                    # The result is where(changed, value as t's dtype, t).
                    target_info = _value_info(b, operands[0])
                    source_bound, source_dtype, source_taint = _value_info(b, extra["source"])
                    if extra["update"]:
                        # t[m] = t[m] <op> operand: the operation in its own
                        # dtype, then the cast into t's.
                        update_op, other, operand = extra["update"]
                        computed = _eval(text[2].replace("@", name), {**env, name: t})
                        computed_dtype = _shape_dtype(computed)[0]
                        update_inputs = [(source_bound, source_dtype, source_taint),
                                  _value_info(b, other) if other else
                                  (("E",), _shape_dtype(_eval(operand, env))[0], False)]
                        value_bound = combine_bound(update_op, [i[:2] for i in update_inputs], computed_dtype)
                        value_taint = tainted(update_op, update_inputs, computed_dtype)
                        mid = combine_bound("astype", [(value_bound, computed_dtype)], dtype)
                        mid_taint = tainted("astype", [(value_bound, computed_dtype, value_taint)], dtype)
                    else:
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
                    plain = _eval(f"{target} {sym} {rhs}", env)
                    local = dict(env)
                    t = env[target]
                    local[name] = t.copy() if isinstance(t, np.ndarray) and t.flags.writeable else t
                    _exec(f"{name} {sym}= {rhs}", local)
                    value = local[name]
                    plain_dtype = _shape_dtype(plain)[0]
                    mid = combine_bound(op, [_value_bound(b, o) for o in operands], plain_dtype)
                    dtype, shape = _shape_dtype(value)
                    bound = combine_bound("astype", [(mid, plain_dtype)], dtype)
                    taint = tainted(op, [_value_info(b, o) for o in operands], plain_dtype)
                    taint = taint or tainted("astype", [(mid, plain_dtype, False)], dtype)
                else:
                    lines = [f"{name} = {text}"]
                    info = _analyse(b, env, Sub(op, text, tuple(operands), extra or {}), name)
                    value, dtype, bound, taint = info.value, info.dtype, info.bound, info.taint
                    shape = _shape_dtype(value)[1]
                    err = info.err if bound[0] in "SB" else ""
                    sources, patterns = info.sources, info.patterns
                accepted = (op, lines, value, dtype, shape, bound, False, operands, extra, taint,
                            err, sources, patterns)
                break
            except Exception:  # noqa: BLE001 - any failure NumPy reports is a valid program end
                b.plan.clear()
                if b.chance(20):
                    if isinstance(extra, dict) and "assign" in extra:
                        lines = _assignment_lines(name, text)
                    elif extra == "inplace":
                        lines = [f"{name} = {text[0]}", f"{name} {text[1]}= {text[2]}"]
                    else:
                        lines = [f"{name} = {text}"]
                    accepted = (op, lines, None, "", (), ("E",), True, operands, extra, False,
                                "", frozenset(), frozenset())
                    break
        if accepted is None:
            break
        (op, lines, value, dtype, shape, bound, fails, operands, extra, taint, err, sources,
         patterns) = accepted
        node = Node(name, lines, op, bound, dtype, shape, fails, err=err or "", patterns=patterns)
        plain = not (extra == "inplace" or (isinstance(extra, dict) and "assign" in extra))
        if plain and op in ("sum", "mean") and bound[0] == "S":
            fn = "np.sum" if op == "sum" else "np.mean"
            src = operands[0] if isinstance(operands[0], str) else operands[0].text
            kw = extra.get("kw")
            # (of complex values: |real part| + |imaginary part|, which bounds
            # the sum of both parts' errors)
            magnitude = (f"_abs_parts({src})" if is_complex(dtype) else
                         f"np.abs(np.asarray({src}, dtype=np.float64))")
            node.reduce_call = f"{fn}({magnitude}{', ' + kw if kw else ''})"
        if op == "astype" and bound[0] == "I" and plain:
            # The floats converted, for the integers' tolerance (int:K:T).
            node.reduce_call = f"np.asarray({operands[0]}, dtype=np.float64)"
        nodes.append(node)
        used.update(_reads(name, lines))
        if fails:
            ended_by_error = True
            break
        env[name] = value
        if not plain:
            target = operands[0]
            b.live.remove(target)
        b.live.append(name)
        b.shapes[name] = shape
        b.dtypes[name] = dtype
        b.bounds[name] = bound
        b.sources[name] = sources
        if err:
            b.errs.add(name)
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
    mode = b.pick(["ignore"] * 7 + ["default"] * 2 + ["inner", "raise", "record"])
    calls = 2 if b.chance(15) else 1
    return Program(seed, inputs, nodes, results, tags, scales, mode, calls, late=b.chance(70))


HEADER = '''\
# Generated by tests/property/program_gen.py: random NumPy programs, each run
# by _run; every line of output names the program's index.
import base64
import functools
import hashlib
import sys
import warnings

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
    if dt.kind == "c":
        # Real and imaginary parts drawn apart, as float64 values of the kind;
        # special ones have huge and subnormal parts too.
        parts = [_data(rng, shape, "float64", kind) for _ in range(2)]
        if kind == "special":
            extremes = np.array([1e308, -1e308, 2.2250738585072014e-308, 5e-324, -1e-310])
            pick = rng.integers(0, len(extremes), size=(2,) + shape)
            parts = [np.where(rng.random(shape) < 0.05, extremes[p], x) for p, x in zip(pick, parts)]
        z = np.empty(shape, dt)
        z.real, z.imag = parts   # (not x + 1j * y: 1j * inf has a NaN real part)
        return z
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


def _abs(x):
    return np.abs(np.asarray(x, dtype=np.float64))


def _abs_parts(x):
    z = np.asarray(x, dtype=np.complex128)
    return np.abs(z.real) + np.abs(z.imag)


def _rounding(r):
    # One rounding to r's type (half an ulp in each interpreter: eps
    # relative), or an underflow's.
    f = np.finfo(np.asarray(r).dtype)
    return float(f.eps) * _abs(r) + float(f.smallest_subnormal)


def _err_div(r, a, ea, b, eb):
    # |a'/b' - a/b| <= (ea |b| + |a| eb) / (|b| (|b| - eb)); no bound where
    # b' may be 0.
    m = _abs(b)
    return np.where(m > eb, (ea * m + _abs(a) * eb) / (m * (m - eb)), np.inf) + _rounding(r)


def _err_sqrt(r, a, ea):
    # |sqrt(a') - sqrt(a)| <= min(sqrt(ea), ea / sqrt(a)); none where a' may be negative.
    a = np.asarray(a, dtype=np.float64)
    return np.where(a >= ea, np.fmin(np.sqrt(ea), ea / np.sqrt(a)), np.inf) + _rounding(r)


def _err_log(r, a, ea):
    # |log a' - log a| <= -log1p(-ea / a); none where a' may be 0 or negative.
    a = np.asarray(a, dtype=np.float64)
    near = np.where(ea == 0, 0.0, np.inf)
    return np.where(a > ea, -np.log1p(-ea / a), near) + 8 * _rounding(r)


def _err_sum(r, x, ex, n, mean, **kw):
    # Any order of summing n terms within ex of x: (n - 1) / 2 eps of the
    # sum of their magnitudes in each interpreter, (n + 2) eps with room.
    f = np.finfo(np.asarray(r).dtype)
    ex = np.broadcast_to(ex, np.shape(x))
    e = np.sum(ex + (n + 2) * float(f.eps) * (_abs(x) + ex), **kw) + (n + 2) * float(f.smallest_subnormal)
    return e / max(n, 1) + _rounding(r) if mean else e


def _err_norm(r, x, ex, n, **kw):
    # | |x'| - |x| | <= |x' - x|, and a relative (n + 2) eps in each
    # interpreter, or the root of n squares' underflows.
    f = np.finfo(np.asarray(r).dtype)
    d = np.sqrt(np.sum(np.square(np.broadcast_to(ex, np.shape(x))), **kw))
    return d + 2 * (n + 2) * float(f.eps) * (_abs(r) + d) + np.sqrt((n + 2) * float(f.smallest_subnormal))


def _err_exp(r, a, ea):
    # exp(a') - exp(a) <= exp(a) expm1(ea), exp(a) below the smallest float
    # where r is 0.
    return (_abs(r) + float(np.finfo(np.asarray(r).dtype).smallest_subnormal)) * np.expm1(ea) + \
        8 * _rounding(r)


def _err_var(r, x, ex, n, ddof, std, axis=None, keepdims=False):
    # var(x + e) - var(x) = (2 sum (x - m) e + sum (e - mean e)^2) / (n - ddof);
    # NumPy's _var computes the mean within delta, then sums squares of x
    # less it (of which delta adds n delta^2) within (n + 3) / 2 eps, and
    # n squares' underflows.
    f = np.finfo(np.asarray(r).dtype)
    eps = float(f.eps)
    x = np.asarray(x, dtype=np.float64)
    ex = np.broadcast_to(ex, x.shape)
    d = np.float64(n - ddof)   # (0 or less: NumPy's var is inf or NaN, so is its bound)
    dev = np.abs(x - np.mean(x, axis=axis, keepdims=True)) if n else x
    total = lambda v: np.sum(v, axis=axis, keepdims=keepdims)  # noqa: E731
    var = total(dev * dev) / d
    delta = (n + 2) * eps * total(np.abs(x)) / max(n, 1)
    shift = n * delta * delta / d
    e = (2 * total(dev * ex) + total(ex * ex)) / d + \
        2 * ((n + 5) * eps * (var + shift) + shift + n * float(f.smallest_subnormal) / d)
    if std:
        # |sqrt(v') - sqrt(v)| <= min(sqrt(|v' - v|), |v' - v| / sqrt(v))
        e = np.fmin(np.sqrt(e), 2 * e / np.sqrt(var))
    return e + _rounding(r)


_ERR = {
    "ulp": lambda r, k: k * np.spacing(np.abs(np.asarray(r))).astype(np.float64),
    "add": lambda r, ea, eb: ea + eb + _rounding(r),
    "multiply": lambda r, a, ea, b, eb: ea * _abs(b) + eb * _abs(a) + ea * eb + _rounding(r),
    "divide": _err_div,
    "square": lambda r, a, ea, k: ea * (2 * _abs(a) + ea) + k * _rounding(r),
    "sqrt": _err_sqrt,
    # (NumPy's exp, log, tanh, sin and cos: within 4 ulps in each interpreter)
    "exp": _err_exp,
    "log": _err_log,
    "tanh": lambda r, a, ea: np.minimum(ea, 2) + 8 * _rounding(r),
    "sincos": lambda r, a, ea: np.minimum(ea, 2) + 8 * _rounding(np.ones_like(r)),
    "same": lambda r, ea: ea,
    "max": lambda r, *es: functools.reduce(np.maximum, es),
    "where": lambda r, c, ea, eb: np.where(c, ea, eb),
    "sum": _err_sum,
    "max_of": lambda r, x, ex, **kw: np.max(np.broadcast_to(ex, np.shape(x)), **kw),
    "norm": _err_norm,
    "var": _err_var,
    "relative": lambda r, c, n: c * float(np.finfo(np.asarray(r).dtype).eps) * _abs(r) +
    (n + 2) * float(np.finfo(np.asarray(r).dtype).smallest_subnormal),
}


def _err(rule, r, *args, **kw):
    # A bound on the difference between python3's and npython's r (float64,
    # each element): what `rule` makes of its operands' bounds, plus its own
    # rounding; inf where r or r within it may overflow.
    with np.errstate(all="ignore"):
        e = _ERR[rule](r, *args, **kw)
        e = np.where(_abs(r) + e >= float(np.finfo(np.asarray(r).dtype).max), np.inf, e)
        return np.array(np.broadcast_to(e, np.shape(r)), dtype=np.float64)


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
            elif mode == "raise":
                # The first floating-point error raises, from its line.
                with np.errstate(all="raise"):
                    results = prog(*args)
                _emit(i, c, tags, results)
            elif mode == "record":
                # Warnings as the program sees them when it records them.
                with warnings.catch_warnings(record=True) as seen:
                    warnings.simplefilter("always")
                    results = prog(*args)
                print(f"W {i} {c} {[(w.category.__name__, str(w.message), w.lineno) for w in seen]!r}")
                _emit(i, c, tags, results)
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
