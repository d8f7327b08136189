# Fancy (integer-array) indexing, take/put, reshape/transpose/stack.
import numpy as np

a = np.arange(10) * 10
print("fancy", a[[0, 3, 3, 9]].tolist(), a[np.array([-1, -2])].tolist())
b = a.copy()
b[[1, 1, 2]] = [7, 8, 9]
print("repeated index assign (last wins)", b[:4].tolist())
b[[0, 0, 0]] += 1
print("repeated += applies once", int(b[0]))
m = np.arange(20).reshape(4, 5)
print("rows", m[[0, 2]].tolist())
print("pairs", m[[0, 1, 3], [4, 0, 2]].tolist())
print("ix_", m[np.ix_([1, 3], [0, 2, 4])].tolist())
print("mixed slice+fancy", m[1:3, [0, -1]].tolist(), m[:, [True, False, True, False, False]].tolist())
print("take", np.take(a, [2, 5]).tolist(), np.take(m, [0, 4], axis=1).tolist())
print("take_along_axis", np.take_along_axis(m, np.argsort(-m, axis=1)[:, :2], axis=1).tolist())
p = np.zeros(6, dtype=np.int64)
np.put(p, [0, 2, 4], [5, 6, 7])
print("put", p.tolist())
print("reshape", np.arange(12).reshape(3, -1).shape, np.arange(12).reshape(2, 3, 2)[1].tolist())
t = np.arange(24).reshape(2, 3, 4)
print("transpose", t.transpose(2, 0, 1).shape, t.T.shape, np.swapaxes(t, 0, 2)[1, 2].tolist(), np.moveaxis(t, 0, -1).shape)
print("stack", np.stack([np.arange(3), np.arange(3, 6)]).tolist(), np.stack([np.arange(3)] * 2, axis=1).shape)
print("concat", np.concatenate([m[:1], m[-1:]], axis=0).tolist(), np.hstack([np.ones(2, int), np.zeros(2, int)]).tolist())
print("vstack/column_stack", np.vstack([[1, 2], [3, 4]]).shape, np.column_stack([[1, 2], [3, 4]]).tolist())
print("split", [s.tolist() for s in np.split(np.arange(9), 3)], [s.shape for s in np.array_split(np.arange(10), 3)])
print("tile/repeat", np.tile([1, 2], 3).tolist(), np.repeat([1, 2], [2, 3]).tolist())
print("flip/roll", np.flip(m, axis=1)[0].tolist(), np.roll(np.arange(5), 2).tolist(), np.rot90(np.arange(4).reshape(2, 2)).tolist())
print("ravel order", m[:2, :3].ravel(order="F").tolist(), np.ravel_multi_index(([1, 3], [2, 4]), m.shape).tolist())
print("unravel", [v.tolist() for v in np.unravel_index([7, 19], m.shape)])
print("diag/tri", np.diag(m).tolist(), np.tril(np.ones((3, 3), int)).tolist(), np.triu_indices(3, 1)[1].tolist())
print("meshgrid", [g.tolist() for g in np.meshgrid([1, 2, 3], [10, 20])])
print("indices", np.indices((2, 3)).shape, np.argwhere(m % 7 == 0).tolist())
try:
    a[[1, 20]]
except IndexError as e:
    print("IndexError:", e)
