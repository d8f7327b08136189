"""Spectral norm of an infinite matrix.

A is the infinite matrix with entries A(i, j) = 1 / ((i+j)(i+j+1)/2 + i + 1)
(i, j counted from 0).  Its spectral norm (the square root of the largest
eigenvalue of A^T A) is estimated by the power method applied to the N x N
leading block: ten rounds of v = A^T A u, u = A^T A v, then
sqrt(<u, v> / <v, v>).  Prints the estimate with 9 decimals.
"""

import math

N = 920
ROUNDS = 10


def a_entry(i, j):
    s = i + j
    return 1.0 / (s * (s + 1) // 2 + i + 1)


def mul_a(u, n):
    # (A u)_i = sum_j u_j / den(i, j)
    out = []
    for i in range(n):
        total = 0.0
        for j in range(n):
            s = i + j
            total += u[j] / (s * (s + 1) // 2 + i + 1)
        out.append(total)
    return out


def mul_at(u, n):
    # (A^T u)_i = sum_j u_j / den(j, i)
    out = []
    for i in range(n):
        total = 0.0
        for j in range(n):
            s = i + j
            total += u[j] / (s * (s + 1) // 2 + j + 1)
        out.append(total)
    return out


def mul_ata(u, n):
    return mul_at(mul_a(u, n), n)


def spectral_norm(n):
    u = [1.0] * n
    v = u
    for _ in range(ROUNDS):
        v = mul_ata(u, n)
        u = mul_ata(v, n)
    vbv = 0.0
    vv = 0.0
    for ui, vi in zip(u, v):
        vbv += ui * vi
        vv += vi * vi
    return math.sqrt(vbv / vv)


def main():
    # Sanity check of the entry formula against the direct definition.
    assert a_entry(0, 0) == 1.0 and a_entry(1, 0) == 1.0 / 3.0
    print("spectral norm (N=%d): %.9f" % (N, spectral_norm(N)))


if __name__ == "__main__":
    main()
