#!/usr/bin/env python3
"""Pillow side of bench/image-bench: the same decode + dim + encode as image-bench-runner.

    python3 bench/image_bench_pillow.py IN OUT FACTOR

Dims in linear light with the same rule as the service for untagged sRGB images: a 256-entry
table per channel mapping each code to the code nearest to FACTOR x its linear value (sRGB
curve, IEC 61966-2-1); alpha untouched. JPEG: quality 90, optimized Huffman tables, 4:4:4 (what
libvips does at quality 90); PNG: zlib level 6. EXIF and ICC profile are written back.
Prints one JSON line of phase times in milliseconds.
"""
import json
import sys
import time

from PIL import Image


def linear(c):
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def dim_table(k):
    lin = [linear(v) for v in range(256)]
    table, u = [], 0
    for v in range(256):
        target = k * lin[v]
        while u + 1 < 256 and lin[u + 1] <= target:
            u += 1
        best = u + 1 if u + 1 < 256 and abs(lin[u + 1] - target) < abs(target - lin[u]) else u
        table.append(best)
    return table


def main():
    src, dst, k = sys.argv[1], sys.argv[2], float(sys.argv[3])
    t0 = time.perf_counter()
    im = Image.open(src)
    fmt = im.format
    info = dict(im.info)
    im.load()
    t1 = time.perf_counter()
    table = dim_table(k)
    if im.mode == "RGBA":
        r, g, b, a = im.split()
        out = Image.merge("RGBA", [c.point(table) for c in (r, g, b)] + [a])
    elif im.mode == "RGB":
        out = im.point(table * 3)
    elif im.mode == "L":
        out = im.point(table)
    else:
        raise SystemExit(f"mode {im.mode} not handled")
    t2 = time.perf_counter()
    extra = {k: v for k, v in (("exif", info.get("exif")), ("icc_profile", info.get("icc_profile"))) if v}
    if fmt == "JPEG":
        out.save(dst, "JPEG", quality=90, optimize=True, subsampling=0, **extra)
    else:
        out.save(dst, "PNG", compress_level=6, **extra)
    t3 = time.perf_counter()
    print(json.dumps({"width": im.width, "height": im.height, "decodeMs": round((t1 - t0) * 1000, 1),
                      "dimMs": round((t2 - t1) * 1000, 1), "encodeMs": round((t3 - t2) * 1000, 1),
                      "totalMs": round((t3 - t0) * 1000, 1)}))


if __name__ == "__main__":
    main()
