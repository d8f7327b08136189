# Slicing with steps, negative steps, views and slice assignment.
import numpy as np

a = np.arange(20)
print("a[::2]", a[::2].tolist())
print("a[::-1]", a[::-1][:5].tolist())
print("a[15:3:-3]", a[15:3:-3].tolist())
print("a[-5:]", a[-5:].tolist(), "a[:-15]", a[:-15].tolist())
print("empty", a[10:5].tolist(), a[10:5].shape)

v = a[2:12:2]
v[:] = -1
print("after view assign", a.tolist())
print("shares memory", np.shares_memory(a, v), "base is a", v.base is a)
c = a[::3].copy()
c[0] = 999
print("copy independent", int(a[0]), int(c[0]))

m = np.arange(30).reshape(5, 6)
print("m[1:4, ::2]", m[1:4, ::2].tolist())
print("m[::-1, ::-1][0]", m[::-1, ::-1][0].tolist())
print("m[:, -1]", m[:, -1].tolist(), "m[-1]", m[-1].tolist())
print("m[..., 2]", m[..., 2].tolist())
print("m[None, 1:3].shape", m[None, 1:3].shape, m[:, None, :].shape)
print("strides", m[::2, ::3].strides, m.T.strides)

m[1:3, 1:5] = 0
m[4, :] = np.arange(100, 106)
m[:, 0] += 1000
print("after assign", m.tolist())
m[::2, ::2] *= -1
print("strided mul", m[0].tolist(), m[2].tolist())

f = np.linspace(0.0, 1.0, 11)
f[::-2] = f[::-2] * 10
print("float", [f"{x:.1f}" for x in f])
# overlapping self-assignment (NumPy handles overlap as if copied)
o = np.arange(10)
o[1:] = o[:-1]
print("overlap", o.tolist())
o2 = np.arange(10)
o2[:-1] = o2[1:]
print("overlap2", o2.tolist())
