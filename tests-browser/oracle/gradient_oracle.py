"""Chromium as the oracle for CSS gradients: renders each gradient of CASES as the background of a
div of a known size in headless Chromium (device scale factor 1), takes a screenshot of the page,
decodes the PNG here (no imaging library needed) and writes one JSON line per gradient:

    {"css": ..., "width": W, "height": H, "pixels": [[x, y, r, g, b], ...]}

where (x, y) is a pixel of the div (its center is at x + 0.5, y + 0.5 CSS px) and r, g, b its
8-bit color. Tests/ColorScienceTests/GradientTests.swift ("interpolated colors match headless Chromium's pixels") evaluates CSSGradient at the same
points and compares.

    ~/.cache/contrast-service/browser-venv/bin/python gradient_oracle.py > ../../Tests/Fixtures/gradients.jsonl

Needs chromium, chromium-driver and selenium.
"""
import base64
import json
import math
import struct
import zlib

from selenium import webdriver
from selenium.webdriver.chrome.options import Options

# (css, width, height, which pixels): "row" = every 4th pixel of the middle row,
# "ring" = 48 points on a circle of radius 40 around the center (conic).
CASES = [
    ("linear-gradient(to right, #000, #fff)", 256, 8, "row"),
    ("linear-gradient(to right in srgb, #ff0000, #0000ff)", 256, 8, "row"),
    ("linear-gradient(to right, #ff0000, #0000ff)", 256, 8, "row"),
    ("linear-gradient(to right in oklab, #ff0000, #0000ff)", 256, 8, "row"),
    ("linear-gradient(to right in oklab, #0000ff, #ffff00)", 256, 8, "row"),
    ("linear-gradient(to right, oklch(0.7 0.1 30), oklch(0.7 0.1 200))", 256, 8, "row"),
    ("linear-gradient(to right in oklch, #ff0000, #0000ff)", 256, 8, "row"),
    ("linear-gradient(to right in oklch longer hue, #ff0000, #0000ff)", 256, 8, "row"),
    ("linear-gradient(to right in srgb-linear, #000, #fff)", 256, 8, "row"),
    ("linear-gradient(to right, #0066cc, 25%, #ffcc00)", 256, 8, "row"),
    ("linear-gradient(to right, #000 20%, #fff 40% 60%, #c00 80%)", 256, 8, "row"),
    ("linear-gradient(to right, rgb(0 0 255 / 0), #0000ff)", 256, 8, "row"),
    ("linear-gradient(90deg, #123456, #fedcba)", 256, 8, "row"),
    ("repeating-linear-gradient(to right, #000, #fff 25%)", 256, 8, "row"),
    ("radial-gradient(circle 200px at 0 4px, #000, #fff)", 256, 8, "row"),
    ("radial-gradient(circle 200px at 0 4px in oklab, #ff0000, #00ff00)", 256, 8, "row"),
    ("conic-gradient(from 90deg, #ff0000, #0000ff)", 128, 128, "ring"),
    ("conic-gradient(in oklch longer hue, #ff0000, #0000ff)", 128, 128, "ring"),
    ("linear-gradient(to right in hsl, #ff0000, #0000ff)", 256, 8, "row"),
    ("linear-gradient(to right in hsl longer hue, #ff0000, #00ff00)", 256, 8, "row"),
    ("linear-gradient(to right, hsl(30 80% 40%), hsl(200 60% 70%))", 256, 8, "row"),
    ("linear-gradient(to right, transparent, #0066cc)", 256, 8, "row"),
    ("linear-gradient(to right in oklab, #ffcc00, transparent, #0066cc)", 256, 8, "row"),
    ("linear-gradient(to right, #ffcc00, 80%, #330066)", 256, 8, "row"),
    ("linear-gradient(to right in oklab, #000, 70%, #fff)", 256, 8, "row"),
    ("repeating-radial-gradient(circle at 0 4px, #000, #fff 64px)".replace("64px", "25%"), 256, 8, "row"),
    ("repeating-conic-gradient(from 45deg, #ff0000, #0000ff 90deg)", 128, 128, "ring"),
    ("linear-gradient(to right, color(display-p3 1 0 0), oklch(0.6 0.15 250))", 256, 8, "row"),
    # Stop positions and hints in px, placed by the box (the gradient line or ray's length).
    ("linear-gradient(to right, #000 40px, #fff 200px)", 256, 8, "row"),
    ("linear-gradient(to right, #0066cc, 60px, #ffcc00)", 256, 8, "row"),
    ("repeating-linear-gradient(45deg, #3b82f6, #60a5fa 12px, #3b82f6 24px)", 256, 8, "row"),
    ("radial-gradient(circle 200px at 0 4px, #000 20px, #fff 120px)", 256, 8, "row"),
    ("radial-gradient(ellipse 100px 50px at 0 4px, #000, #fff 80px)", 256, 8, "row"),
    # light-dark() stops (the page's color scheme is light): the branch used decides the default
    # interpolation space, sRGB for legacy colors, OKLab otherwise.
    ("linear-gradient(to right, light-dark(#ff0000, #ff0000), light-dark(#00ff00, #00ff00))", 256, 8, "row"),
    ("linear-gradient(to right, light-dark(#ff0000, oklch(0.5 0.2 30)), #00ff00)", 256, 8, "row"),
    ("linear-gradient(to right, light-dark(oklch(0.63 0.26 29), #000000), #00ff00)", 256, 8, "row"),
    # Relative colors and color-mix() are not legacy colors (OKLab), hwb() is (sRGB).
    ("linear-gradient(to right, rgb(from #ff0000 r g b), #00ff00)", 256, 8, "row"),
    ("linear-gradient(to right, hsl(from #ff0000 h s l), #00ff00)", 256, 8, "row"),
    ("linear-gradient(to right, color-mix(in srgb, #ff0000, #ff0000), #00ff00)", 256, 8, "row"),
    ("linear-gradient(to right, hwb(0 0% 0%), #00ff00)", 256, 8, "row"),
]


def decode_png(data):
    """8-bit RGB or RGBA, non-interlaced PNG to (width, height, rows of (r, g, b))."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
            assert depth == 8 and ctype in (2, 6) and interlace == 0, (depth, ctype, interlace)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows


def main():
    options = Options()
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--force-device-scale-factor=1",
              "--window-size=800,600", "--force-color-profile=srgb"]:
        options.add_argument(a)
    driver = webdriver.Chrome(options=options)
    try:
        for css, w, h, which in CASES:
            html = ("<html><body style='margin:0;background:#808080'>"
                    f"<div id=g style='width:{w}px;height:{h}px;background:{css}'></div></body></html>")
            driver.get("data:text/html;base64," + base64.b64encode(html.encode()).decode())
            used = driver.execute_script("return getComputedStyle(document.getElementById('g')).backgroundImage")
            assert used and used != "none", f"Chromium did not take {css}"
            png = base64.b64decode(driver.get_screenshot_as_base64())
            _, _, rows = decode_png(png)
            pts = []
            if which == "row":
                y = h // 2
                pts = [(x, y) for x in range(0, w, 4)] + [(w - 1, y)]
            else:
                for k in range(48):
                    a = 2 * math.pi * (k + 0.5) / 48
                    pts.append((int(w / 2 + 40 * math.sin(a)), int(h / 2 - 40 * math.cos(a))))
            pixels = [[x, y, *rows[y][x]] for x, y in pts]
            print(json.dumps({"css": css, "width": w, "height": h, "pixels": pixels}))
    finally:
        driver.quit()


main()
