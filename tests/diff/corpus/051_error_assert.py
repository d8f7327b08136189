# Uncaught assertion failure with a message: exit status 1.
def mean(values):
    assert values, "mean() of empty sequence"
    return sum(values) / len(values)


def normalize(values):
    m = mean(values)
    out = [v - m for v in values]
    assert abs(sum(out)) < 1e-9
    return out


batches = [[1, 2, 3], [10, 20], []]
for b in batches:
    print("batch", b, "->", normalize(b))
print("unreachable")
