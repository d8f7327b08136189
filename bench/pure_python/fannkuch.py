"""Fannkuch-redux (pancake flipping).

For every permutation of 1..N (visited in the order produced by a counter of
rotations), repeatedly reverse the prefix whose length is the first element
until the first element is 1, counting the flips.  Computes the maximum flip
count over all permutations and a checksum that adds the flip count of
even-indexed permutations and subtracts that of odd-indexed ones.  Prints the
checksum and the maximum.
"""

N = 10


def fannkuch(n):
    perm1 = list(range(n))      # current permutation (0-based values)
    count = list(range(n + 1))  # rotation counters
    max_flips = 0
    checksum = 0
    index = 0                   # parity of the permutation number
    r = n
    while True:
        # Reset the counters below r.
        while r != 1:
            count[r - 1] = r
            r -= 1

        # Count flips for this permutation.
        first = perm1[0]
        if first != 0:
            perm = perm1[:]
            flips = 0
            while first != 0:
                # Reverse perm[0..first] in place.
                perm[:first + 1] = perm[first::-1]
                flips += 1
                first = perm[0]
            if flips > max_flips:
                max_flips = flips
            if index & 1:
                checksum -= flips
            else:
                checksum += flips

        # Next permutation: rotate the first r+1 elements left until a
        # counter does not wrap.
        while True:
            if r == n:
                return checksum, max_flips
            perm1.insert(r, perm1.pop(0))
            count[r] -= 1
            if count[r] > 0:
                break
            r += 1
        index += 1


def main():
    checksum, max_flips = fannkuch(N)
    print("%d" % checksum)
    print("Pfannkuchen(%d) = %d" % (N, max_flips))


if __name__ == "__main__":
    main()
