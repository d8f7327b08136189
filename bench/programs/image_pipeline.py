"""An image processing pipeline on a 1080 x 1920 RGB photo (uint8): to
float32 in [0, 1], gamma correction (** 2.2), luminance (0.299 R + 0.587 G +
0.114 B), a 3 x 3 box blur by slicing, a threshold mask of the bright
pixels, and the blurred luminance back to uint8 (np.clip, astype).

usage: python3 image_pipeline.py [rows]   (image rows; 16/9 as many columns; 1080 by default)
"""
import sys
from pathlib import Path

import numpy as np

# benchlib (the timing every bench program shares) lives with the seed programs.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "seeds"))
from benchlib import digest, measure  # noqa: E402

THRESHOLD = 0.25


def pipeline(image):
    rgb = image.astype(np.float32) / 255
    linear = rgb ** 2.2
    lum = 0.299 * linear[:, :, 0] + 0.587 * linear[:, :, 1] + 0.114 * linear[:, :, 2]
    blurred = (lum[:-2, :-2] + lum[:-2, 1:-1] + lum[:-2, 2:]
               + lum[1:-1, :-2] + lum[1:-1, 1:-1] + lum[1:-1, 2:]
               + lum[2:, :-2] + lum[2:, 1:-1] + lum[2:, 2:]) / 9
    mask = blurred > THRESHOLD
    out = np.clip(blurred * 255 + 0.5, 0, 255).astype(np.uint8)
    return out, mask


def main():
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 1080
    cols = rows * 16 // 9
    rng = np.random.default_rng(1212)
    # A smooth scene (gradients in each channel) with sensor noise.
    yy, xx = np.mgrid[0:rows, 0:cols]
    scene = np.stack([255 * xx / cols, 255 * yy / rows, 128 + 96 * np.sin(xx / 97.0 + yy / 61.0)], axis=-1)
    image = np.clip(scene + rng.normal(0.0, 12.0, scene.shape), 0, 255).astype(np.uint8)
    # The image read once; the uint8 result and the mask written once.
    inside = (rows - 2) * (cols - 2)
    essential = image.nbytes + inside + inside
    out, mask = measure("image_pipeline", pipeline, lambda: (image,), essential)
    print("out", out.dtype, out.shape, digest(out))
    print("mask", mask.dtype, mask.shape, digest(mask), repr(int(mask.sum())))


if __name__ == "__main__":
    main()
