"""Chromium as the oracle for CSS colors: reads CSS color strings (one per line, '#' lines are
comments) and writes css5.jsonl-shaped rows: {"input", "valid_css", "computed_light",
"srgb_light", "computed_dark", "srgb_dark"}. `valid_css` is CSS.supports('color', s); the
computed values are getComputedStyle() under color-scheme light and dark; the sRGB values are
those computed values in unclamped sRGB [r, g, b, alpha] by ColorAide, as
../shared/reference/css5.jsonl was made.

    python3 css_color_oracle.py < cases.txt > ../../Tests/Fixtures/css5_extra.jsonl

Needs chromium, chromium-driver, selenium and coloraide==8.13.1 (see requirements.txt).
"""
import json
import sys

from coloraide import Color
from selenium import webdriver
from selenium.webdriver.chrome.options import Options

options = Options()
for a in ["--headless=new", "--no-sandbox", "--disable-gpu"]:
    options.add_argument(a)
driver = webdriver.Chrome(options=options)
driver.get("data:text/html,<div id=l style='color-scheme:light'></div><div id=d style='color-scheme:dark'></div>")
inputs = [l.rstrip("\n") for l in sys.stdin if l.strip() and not l.startswith("#")]
rows = driver.execute_script("""
const out = [], l = document.getElementById('l'), d = document.getElementById('d');
for (const s of arguments[0]) {
  const r = {input: s, valid_css: CSS.supports('color', s)};
  if (r.valid_css) {
    l.style.color = ''; d.style.color = ''; l.style.color = s; d.style.color = s;
    r.computed_light = getComputedStyle(l).color; r.computed_dark = getComputedStyle(d).color;
  }
  out.push(r);
}
return out;""", inputs)
driver.quit()
for r in rows:
    row = {"input": r["input"], "valid_css": r["valid_css"]}
    if r["valid_css"]:
        for k in ("light", "dark"):
            c = Color(r["computed_" + k]).convert("srgb")
            row["computed_" + k] = r["computed_" + k]
            row["srgb_" + k] = [round(v, 7) for v in c.coords(nans=False)] + [round(c.alpha(nans=False), 7)]
    print(json.dumps(row))
