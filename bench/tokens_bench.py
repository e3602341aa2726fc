"""bench/tokens-bench: POST /v1/tokens/audit on a generated design system of 2,000 color tokens
in 3 modes (light, dark, high-contrast: one DTCG file per mode) with 500 pair rules, through the
running release server. Prints the median time of RUNS audits and the answer's size.

The design system: 20 hue scales × 50 steps of primitives (1,000 tokens, `color.<hue>.<step>`) and
1,000 semantic tokens (`color.text.<n>`, `color.surface.<n>`, …) that alias primitives, different
per mode, one pair in ten failing. Rules: 500 exact `color.text.<n>` on `color.surface.<n>` pairs.
"""
import http.client
import json
import statistics
import sys
import time

PORT, RUNS = int(sys.argv[1]), int(sys.argv[2])
HUES, STEPS = 20, 50
MODES = {"light": 0, "dark": 1, "high-contrast": 2}


def primitive(h, s, mode):
    # OKLCH lightness from the step; the high-contrast mode spreads the extremes.
    l = 0.98 - s * 0.017
    if mode == 2:
        l = min(1, max(0, (l - 0.5) * 1.3 + 0.5))
    return f"oklch({l:.3f} {0.02 + (h % 7) * 0.02:.3f} {h * 18})"


def file_for(mode_name, mode):
    color = {}
    for h in range(HUES):
        color[f"hue{h}"] = {str(s): {"$value": primitive(h, s, mode)} for s in range(STEPS)}
    text, surface = {}, {}
    for n in range(500):
        h = n % HUES
        fg_step = 45 - (n * 7) % 12 if mode != 1 else 2 + (n * 7) % 12
        if n % 10 == 0:  # one pair in ten fails: mid-scale text, so failures pay for suggestions
            fg_step = 14 if mode != 1 else 36
        bg_step = 1 + n % 4 if mode != 1 else 48 - n % 4
        text[str(n)] = {"$value": f"{{color.hue{h}.{fg_step}}}"}
        surface[str(n)] = {"$value": f"{{color.hue{(h + 3) % HUES}.{bg_step}}}"}
    color["text"] = text
    color["surface"] = surface
    return {"name": f"{mode_name}.tokens.json", "mode": mode_name,
            "content": json.dumps({"color": {"$type": "color", **color}}, indent=2)}


files = [file_for(name, m) for name, m in MODES.items()]
rules = [{"foreground": f"color.text.{n}", "background": f"color.surface.{n}"} for n in range(500)]
body = json.dumps({"files": files, "tokenFormat": "dtcg", "rules": rules, "policy": "wcag-aa"})
tokens = sum(json.loads(f["content"]).__str__().count("$value") for f in files) // len(files)
conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=120)
times, size, summary = [], 0, None
for i in range(RUNS + 1):
    start = time.perf_counter()
    conn.request("POST", "/v1/tokens/audit", body=body, headers={"Content-Type": "application/json"})
    r = conn.getresponse()
    payload = r.read()
    elapsed = time.perf_counter() - start
    if r.status != 200:
        raise SystemExit(f"/v1/tokens/audit: {r.status} {payload[:400]!r}")
    if i > 0:  # the first is a warm-up
        times.append(elapsed)
    size = len(payload)
    summary = json.loads(payload)["summary"]
print(f"tokens-bench: {tokens} color tokens per mode, {len(MODES)} modes, {len(rules)} rules, "
      f"request {len(body) / 1024:.0f} KB, {RUNS} runs after a warm-up")
print(f"pairs {summary['pairs']} (passing {summary['passing']}, failing {summary['failing']}); "
      f"median {statistics.median(times) * 1000:.1f} ms, min {min(times) * 1000:.1f} ms; answer {size / 1024:.0f} KB")
