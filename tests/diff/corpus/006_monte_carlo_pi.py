# Monte Carlo estimate of pi with a seeded generator.
import numpy as np


def estimate_pi(rng, n):
    pts = rng.random((n, 2))
    inside = (pts[:, 0] ** 2 + pts[:, 1] ** 2) <= 1.0
    return int(inside.sum()), inside.dtype


rng = np.random.default_rng(42)
total_in = 0
total_n = 0
for n in (1_000, 10_000, 50_000):
    count, dt = estimate_pi(rng, n)
    total_in += count
    total_n += n
    print(f"n={n:6d} inside={count:6d} frac={count / n:.4f} pi~{4 * count / n:.3f} ({dt})")
print(f"overall pi~{4 * total_in / total_n:.4f}")

# vectorised variant using hypot, separate seed
rng2 = np.random.default_rng(42)
x = rng2.random(40_000)
y = rng2.random(40_000)
frac = np.mean(np.hypot(x, y) <= 1.0)
print("mean dtype:", frac.dtype, f"pi~{4 * frac:.4f}")
# reproducibility: same seed gives same first draws
a = np.random.default_rng(42).random(3)
b = np.random.default_rng(42).random(3)
print("reproducible:", bool((a == b).all()), [f"{v:.6f}" for v in a])
