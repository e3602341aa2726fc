"""Exact CSS Color 5 values by ColorAide 8.13.1, for the rows where Chromium's single-precision
math lies more than 1e-4 from the CSS Color 4 sample code (Tests/Fixtures/css5_chromium_precision.txt).
Evaluates color-mix() (ColorAide `mix`, premultiplied, carry-forward, powerless hues), relative
colors (channel keywords substituted into calc(), evaluated as arithmetic) and light-dark() by
scheme; plain colors are parsed by ColorAide. Writes {"input", "srgb_light", "srgb_dark"} lines.

    python3 exact_reference.py < ../../Tests/Fixtures/css5_chromium_precision.txt > ../../Tests/Fixtures/css5_exact.jsonl
"""
import json
import math
import re
import sys

from coloraide import Color

POLAR = {"hsl", "hwb", "lch", "oklch"}


def split_top(s, sep=","):
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    parts.append(cur.strip())
    return parts


def values(s):
    """Top-level space-separated component values."""
    out, depth, cur = [], 0, ""
    for ch in s.strip():
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch.isspace() and depth == 0:
            if cur:
                out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        out.append(cur)
    return out


def inner(s, name):
    assert s.startswith(name + "(") and s.endswith(")"), s
    return s[len(name) + 1:-1]


def evaluate(s, scheme):
    s = s.strip()
    low = s.lower()
    if low.startswith("light-dark("):
        a, b = split_top(inner(s, "light-dark"))
        return evaluate(a if scheme == "light" else b, scheme)
    if low.startswith("color-mix("):
        args = split_top(inner(s, "color-mix"))
        space, hue = "oklab", "shorter"
        if args[0].startswith("in "):
            words = args.pop(0).split()[1:]
            space = words[0]
            if len(words) == 3:
                hue = words[1]
        cs, ps = [], []
        for arg in args:
            vs = values(arg)
            pct = None
            if len(vs) == 2:
                if vs[1].endswith("%"):
                    pct = float(vs[1][:-1]) / 100
                    vs = [vs[0]]
                else:
                    pct = float(vs[0][:-1]) / 100
                    vs = [vs[1]]
            cs.append(evaluate(vs[0], scheme))
            ps.append(pct)
        p1, p2 = ps
        if p1 is None and p2 is None:
            p1 = p2 = 0.5
        elif p1 is None:
            p1 = 1 - p2
        elif p2 is None:
            p2 = 1 - p1
        total, mult = p1 + p2, 1.0
        if total == 0:
            p1 = p2 = 0.5
            mult = 0
        elif total != 1:
            p1, p2 = p1 / total, p2 / total
            mult = min(total, 1)
        cspace = {"xyz": "xyz-d65"}.get(space, space)
        mixed = cs[0].mix(cs[1], p2, space=cspace, hue=hue, premultiplied=True, carryforward=True, powerless=True, out=cspace)
        mixed.set("alpha", mixed.alpha(nans=False) * mult)
        return mixed
    m = re.match(r"^(rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(from (.*)\)$", s, re.I)
    if m:
        fn = m.group(1).lower().rstrip("a") if m.group(1).lower() in ("rgba", "hsla") else m.group(1).lower()
        vs = values(m.group(2))
        origin = evaluate(vs[0], scheme)
        rest = vs[1:]
        alpha = origin.alpha(nans=False)
        if fn == "color":
            space = rest.pop(0)
            c = origin.convert({"xyz": "xyz-d65"}.get(space, space))
            names = ["x", "y", "z"] if space.startswith("xyz") else ["r", "g", "b"]
            coords = c.coords(nans=False)
            scale = [1, 1, 1]
        else:
            space = {"rgb": "srgb"}.get(fn, fn)
            c = origin.convert(space)
            coords = c.coords(nans=False)
            names = {"rgb": "rgb", "hsl": "hsl", "hwb": "hwb", "lab": "lab", "lch": "lch", "oklab": "lab", "oklch": "lch"}[fn]
            names = list(names)
            scale = {"rgb": [255, 255, 255], "hsl": [1, 100, 100], "hwb": [1, 100, 100]}.get(fn, [1, 1, 1])
        env = {n: coords[i] * scale[i] for i, n in enumerate(names)}
        env["alpha"] = alpha
        if "/" in rest:
            k = rest.index("/")
            chans, alpha_expr = rest[:k], rest[k + 1]
        else:
            chans, alpha_expr = rest, None

        def num(expr, i):
            e = expr
            if e.startswith("calc("):
                e = e[5:-1]
            if e.endswith("%"):
                return None, float(e[:-1])
            for n, v in env.items():
                e = re.sub(rf"\b{n}\b", repr(v), e)
            return eval(e, {"__builtins__": {}}, {}), None

        out = []
        for i, expr in enumerate(chans):
            v, pct = num(expr, i)
            if pct is not None:
                full = {"rgb": 255, "hsl": 100, "hwb": 100, "lab": [100, 125, 125][i], "lch": [100, 150, 1][i],
                        "oklab": [1, 0.4, 0.4][i], "oklch": [1, 0.4, 1][i]}.get(fn, 1)
                v = pct / 100 * full
            out.append(v)
        a = alpha
        if alpha_expr is not None:
            v, pct = num(alpha_expr, 3)
            a = pct / 100 if pct is not None else v
        a = min(max(a, 0), 1)
        if fn == "rgb":
            return Color("srgb", [x / 255 for x in out], a)
        if fn in ("hsl", "hwb"):
            return Color(fn, [out[0] % 360, out[1] / 100, out[2] / 100], a)
        if fn in ("lab", "oklab"):
            top = 100 if fn == "lab" else 1
            return Color(fn, [min(max(out[0], 0), top), out[1], out[2]], a)
        if fn in ("lch", "oklch"):
            top = 100 if fn == "lch" else 1
            return Color(fn, [min(max(out[0], 0), top), max(out[1], 0), out[2] % 360], a)
        return Color({"xyz": "xyz-d65"}.get(space, space), out, a)
    return Color(s)


for line in sys.stdin:
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    row = {"input": line}
    for scheme in ("light", "dark"):
        c = evaluate(line, scheme).convert("srgb")
        row["srgb_" + scheme] = [round(v, 12) for v in c.coords(nans=False)] + [round(c.alpha(nans=False), 12)]
    print(json.dumps(row))
