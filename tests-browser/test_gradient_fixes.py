"""A gradient's fixes pass on the pixels Chromium paints, not only on the exact colors.

A new user's pass (stop 39) rendered the fixes of `/v1/contrast` in headless Chromium: a black
scrim of 0.004 "passed" at 4.504:1 where Chromium painted 4.431:1 under it, and Tailwind's
gradient with its scrim (0.12) painted 4.451:1. Fixes are now searched to pass as painted
(GradientFixes.paintedRatio, docs/api/contrast.md "Fixes"); this renders each gradient with the
recommended scrim, and with the text color on the gradient alone, and measures every pixel of the
box (or region) against the text by the WCAG 2.2 formula.
"""
import base64
import os
import sys
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

sys.path.insert(0, str(Path(__file__).resolve().parent / "oracle"))
from gradient_oracle import decode_png  # noqa: E402


TAILWIND = "linear-gradient(to right in oklab, oklch(58.5% 0.233 277.117), oklch(65.6% 0.241 354.308))"
# (text, gradient, box width, height, region or None, target or None)
CASES = [
    ("#ffffff", "linear-gradient(135deg, #6366f1, #ec4899)", 1200, 400, (40, 40, 400, 100), None),
    ("#ffffff", TAILWIND, 800, 100, None, None),
    ("#ffffff", "linear-gradient(135deg, #6366f1, #ec4899)", 800, 200, None, None),
    ("#ffffff", "linear-gradient(in oklch, #ff0000, #00ff00)", 800, 100, None, None),
    ("#3b82f6", "linear-gradient(to right, #ffffff, #e0f2fe, #fef3c7)", 800, 100, None, None),
    ("#ffffff", "linear-gradient(#4338ca, #be185d)", 400, 300, None, "AAA"),
]


def luminance(rgb):
    def lin(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = rgb
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def weakest(rows, text, x, y, w, h):
    lt = luminance(text)
    seen = {}
    worst = 21.0
    for row in rows[y:y + h]:
        for px in row[x:x + w]:
            if px not in seen:
                lb = luminance(px)
                seen[px] = (max(lt, lb) + 0.05) / (min(lt, lb) + 0.05)
            worst = min(worst, seen[px])
    return worst


@pytest.fixture(scope="module")
def srgb_driver():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--force-device-scale-factor=1", "--window-size=1280,900", "--force-color-profile=srgb",
                "--hide-scrollbars"):
        options.add_argument(arg)
    service = Service(os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver"))
    d = webdriver.Chrome(service=service, options=options)
    yield d
    d.quit()


def hex_rgb(h):
    return tuple(int(h[i:i + 2], 16) for i in (1, 3, 5))


@pytest.mark.parametrize("text,gradient,width,height,region,target", CASES)
def test_fixes_pass_as_chromium_paints_them(server, srgb_driver, text, gradient, width, height, region, target):
    body = {"foreground": text, "background": gradient, "box": {"width": width, "height": height}}
    if region:
        body["region"] = dict(zip(("x", "y", "width", "height"), region))
    if target:
        body["target"] = target
    status, d = server.api("/v1/contrast", body=body)
    assert status == 200, d
    fixes = d["fixes"]
    minimum = fixes["target"]["minimum"]
    # The recommended scrim, or where none is (every passing one turns the text's polarity and
    # the text color keeps it), the passing one: each scrim offered must pass as painted.
    kind = fixes["scrim"]["recommended"] or next(k for k in ("black", "white") if fixes["scrim"][k] and fixes["scrim"][k]["after"]["passes"])
    scrim = fixes["scrim"][kind]
    channel = "0 0 0" if kind == "black" else "255 255 255"
    layer = f"linear-gradient(rgb({channel} / {scrim['alpha']}), rgb({channel} / {scrim['alpha']}))"
    html = ("<html><body style='margin:0'>"
            f"<div style='width:{width}px;height:{height}px;background:{layer}, {gradient}'></div>"
            f"<div style='width:{width}px;height:{height}px;background:{gradient}'></div></body></html>")
    srgb_driver.set_window_size(max(width, 400), 2 * height + 200)
    srgb_driver.get("data:text/html;base64," + base64.b64encode(html.encode()).decode())
    _, _, rows = decode_png(base64.b64decode(srgb_driver.get_screenshot_as_base64()))
    x, y, w, h = region or (0, 0, width, height)
    under_scrim = weakest(rows, hex_rgb(text), x, y, w, h)
    assert under_scrim >= minimum, f"{gradient}: scrim {scrim['alpha']} painted {under_scrim:.4f} < {minimum}"
    if fixes["textColor"]:
        color = hex_rgb(fixes["textColor"]["hex"])
        on_gradient = weakest(rows[height:], color, x, y, w, h)
        assert on_gradient >= minimum, f"{gradient}: text {fixes['textColor']['hex']} painted {on_gradient:.4f} < {minimum}"
