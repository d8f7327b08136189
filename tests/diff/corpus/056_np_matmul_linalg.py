# Matrix products and small linear algebra (results rounded).
import numpy as np

A = np.arange(1, 7).reshape(2, 3)
B = np.arange(1, 7).reshape(3, 2)
print("int matmul", (A @ B).tolist(), (A @ B).dtype, np.dot(A, B).tolist())
print("einsum", np.einsum("ij,jk->ik", A, B).tolist(), np.einsum("ii", np.arange(9).reshape(3, 3)))
print("outer", np.outer([1, 2], [3, 4, 5]).tolist(), "inner", int(np.inner([1, 2, 3], [4, 5, 6])))
print("vdot", int(np.vdot(A, A)), "trace", int(np.trace(A @ B)), "kron", np.kron([1, 2], [1, 10]).tolist())
print("batched", (np.ones((4, 2, 3)) @ np.ones((3, 5))).shape, np.matmul(np.ones((2, 1, 3, 4)), np.ones((5, 4, 2))).shape)

rng = np.random.default_rng(17)
M = rng.standard_normal((6, 6)) + 6 * np.eye(6)
b = rng.standard_normal(6)
x = np.linalg.solve(M, b)
print("solve", x.shape, x.dtype, [f"{v:.6f}" for v in x])
print("residual small", bool(np.linalg.norm(M @ x - b) < 1e-10))
print("det", f"{np.linalg.det(M):.4f}", "inv ok", bool(np.allclose(M @ np.linalg.inv(M), np.eye(6))))
S = M @ M.T
w = np.linalg.eigvalsh(S)
print("eigvalsh", [f"{v:.4f}" for v in w])
print("norms", f"{np.linalg.norm(M):.6f}", f"{np.linalg.norm(M, 1):.6f}", f"{np.linalg.norm(b, np.inf):.6f}")
L = np.linalg.cholesky(S)
print("cholesky lower", bool(np.allclose(np.triu(L, 1), 0)), bool(np.allclose(L @ L.T, S)))
q, r = np.linalg.qr(M)
print("qr", q.shape, r.shape, bool(np.allclose(q @ r, M)), bool(np.allclose(q.T @ q, np.eye(6))))
print("rank", int(np.linalg.matrix_rank(M)), int(np.linalg.matrix_rank(np.ones((4, 4)))))
coef, res, rank, sv = np.linalg.lstsq(np.vstack([np.arange(10), np.ones(10)]).T, 3 * np.arange(10) + 2.0, rcond=None)
print("lstsq", [f"{c:.6f}" for c in coef], int(rank))
print("f32 matmul dtype", (M.astype(np.float32) @ M.astype(np.float32)).dtype)
try:
    np.linalg.inv(np.ones((3, 3)))
except np.linalg.LinAlgError as e:
    print("LinAlgError:", e)
