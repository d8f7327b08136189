# Element-wise arithmetic, broadcasting, scalars, integer wrap, NEP 50 promotion.
import numpy as np

a = np.arange(12).reshape(3, 4)
col = np.array([[1], [2], [3]])
row = np.array([10, 20, 30, 40])
print("a+row", (a + row).tolist())
print("a*col", (a * col).tolist())
print("col-row shape", (col - row).shape, (col - row).dtype)
print("a//3", (a // 3).tolist(), "a%5", (a % 5)[0].tolist())
print("2**a", (2 ** a)[2].tolist())
print("a/4", (a / 4).dtype, [f"{v:.2f}" for v in (a / 4)[1]])

# int8 / uint8 wrap-around (array ops never warn)
i8 = np.array([100, 120, -128, 127], dtype=np.int8)
print("int8 +10", (i8 + np.int8(10)).tolist(), (i8 + 10).dtype)
print("int8 *2", (i8 * 2).tolist())
print("int8 neg", (-i8).tolist())
u8 = np.array([0, 1, 200, 255], dtype=np.uint8)
print("uint8 +100", (u8 + 100).tolist(), (u8 + 100).dtype)
print("uint8 -1", (u8 - 1).tolist())

# NEP 50 promotion
cases = [
    ("int8 + 1", i8 + 1),
    ("int8 + int16", i8 + np.int16(1)),
    ("int8 + uint8", i8 + u8),
    ("uint8 + 1.5", u8 + 1.5),
    ("uint8 + float32", u8 + np.float32(1.5)),
    ("f32 + 1.5", np.ones(2, np.float32) + 1.5),
    ("f32 + f64 scalar", np.ones(2, np.float32) + np.float64(1.5)),
    ("f32 + 1j", np.ones(2, np.float32) + 1j),
    ("int64 + True", np.arange(2) + True),
    ("bool + bool", np.array([True, False]) + np.array([True, True])),
    ("int32 / int32", np.arange(3, dtype=np.int32) / np.int32(2)),
    ("uint64 + int64", np.uint64(3) + np.int64(4)),
]
for name, r in cases:
    print(f"{name:18s} -> {r.dtype}")
try:
    i8 + 300
except OverflowError as e:
    print("OverflowError:", e)
print("result_type", np.result_type(np.int8, np.uint16), np.result_type(np.float16, np.int16))
