# 1-D heat equation stencil with slice assignment in a loop.
import numpy as np


def step(u, steps):
    for _ in range(steps):
        u[1:-1] = u[1:-1] + 0.25 * (u[2:] - 2 * u[1:-1] + u[:-2])
    return u


n = 20_000
x = np.linspace(0.0, 1.0, n)
u = np.exp(-((x - 0.5) ** 2) / 0.0001)
u[0] = 0.0
u[-1] = 0.0
print("u", u.shape, u.dtype)
print(f"initial sum {u.sum():.6f} max {u.max():.6f}")
for rounds in range(3):
    u = step(u, 50)
    print(f"after {50 * (rounds + 1):3d} steps: sum {u.sum():.6f} max {u.max():.6f} argmax {int(u.argmax())}")

# integer-like spike, float32 grid
v = np.zeros(101, dtype=np.float32)
v[50] = 1000.0
v = step(v, 20)
print("f32", v.dtype, f"{float(v.sum()):.3f}", [f"{t:.3f}" for t in v[46:55]])
print("symmetric:", bool(np.allclose(v, v[::-1])))

# 2-D five-point stencil
g = np.zeros((64, 64))
g[0, :] = 100.0
for _ in range(100):
    g[1:-1, 1:-1] = 0.25 * (g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:])
print("2d", g.shape, f"{g[1:-1, 1:-1].mean():.6f}", f"{g[1, 32]:.6f}", f"{g[32, 32]:.6f}")
