"""bench/palette-bench: suggest and dark-palette time per color (ms), through HTTP."""
import http.client
import json
import statistics
import sys
import time

PORT, RUNS = int(sys.argv[1]), int(sys.argv[2])
COLORS = [c for c in json.load(open("Tests/Fixtures/palettes/tailwind-v4.json"))["colors"]]
conn = http.client.HTTPConnection("127.0.0.1", PORT)


def post(path, body):
    data = json.dumps(body)
    start = time.perf_counter()
    conn.request("POST", path, body=data, headers={"Content-Type": "application/json"})
    r = conn.getresponse()
    payload = r.read()
    elapsed = time.perf_counter() - start
    if r.status != 200:
        raise SystemExit(f"{path}: {r.status} {payload[:300]!r}")
    return elapsed, len(payload)


print(f"palette-bench: {len(COLORS)} Tailwind v4 colors, {RUNS} runs, times per color in ms (median of runs)\n")
print(f"{'case':<58} {'ms/color':>9} {'p95 ms':>8} {'resp KB':>8}")

# Suggest: every color as text on white (AA), then as text on gray-900 with move both.
for label, bg, move, target in [("suggest fg on #ffffff, AA 4.5:1, move foreground", "#ffffff", "foreground", "AA"),
                                ("suggest fg on #111827, AAA 7:1, move both", "#111827", "both", "AAA"),
                                ("suggest fg on #ffffff, APCA Lc 75, move background", "#ffffff", "background", "apca")]:
    runs = []
    for _ in range(RUNS):
        times = [post("/v1/suggest", {"foreground": c["value"], "background": bg, "move": move, "target": target})[0]
                 for c in COLORS]
        runs.append(times)
    med = statistics.median(sum(t) / len(t) for t in runs) * 1000
    p95 = statistics.quantiles(runs[-1], n=20)[-1] * 1000
    print(f"{label:<58} {med:9.3f} {p95:8.3f} {'':>8}")

ROLES = ["tint", "text", "secondaryText", "icon", "background"]
for size in (16, 64, 256):
    for label, roles, policy in [("tints, 3:1", ["tint"], {"target": 3}), ("mixed roles, HIG policy", ROLES, {"policy": "hig"})]:
        chunk = COLORS[:size]
        body = {"colors": [{"name": c["name"], "role": roles[i % len(roles)], "color": c["value"]} for i, c in enumerate(chunk)]}
        body.update(policy)
        per = []
        size_kb = 0
        for _ in range(RUNS):
            t, n = post("/v1/palette/dark", body)
            per.append(t / len(chunk))
            size_kb = n / 1024
        print(f"{f'palette/dark, {size} colors, {label}':<58} {statistics.median(per) * 1000:9.3f} {'':>8} {size_kb:8.0f}")

for fmt in ("xcassets", "css", "tokens", "android", "svg"):
    chunk = COLORS[:64]
    body = {"colors": [{"name": c["name"], "role": "tint", "color": c["value"]} for c in chunk], "target": 3, "format": fmt}
    per = []
    for _ in range(RUNS):
        t, n = post("/v1/palette/export", body)
        per.append(t / len(chunk))
    print(f"{f'palette/export {fmt}, 64 colors (includes generation)':<58} {statistics.median(per) * 1000:9.3f} {'':>8} {n / 1024:8.0f}")
