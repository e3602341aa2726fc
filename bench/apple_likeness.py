"""bench/apple-likeness: generated dark / increased-contrast tints vs Apple's own (ΔE OK)."""
import json
import sys
import urllib.request

PORT = int(sys.argv[1])
DATA = json.load(open("Sources/ContrastAPI/Resources/apple_system_colors.json"))
GENERATIONS = [("iOS26", "ios26", "iOS 26"), ("iOS15_18", "ios15-18", "iOS 15–18")]
VARIANTS = [("dark", "dark"), ("lightIncreasedContrast", "light_IC"), ("darkIncreasedContrast", "dark_IC")]


def post(path, body):
    req = urllib.request.Request(f"http://127.0.0.1:{PORT}{path}", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.load(r)


def hexof(c):
    return "#%02x%02x%02x" % (c["r"], c["g"], c["b"])


def delta_eok(a, b):
    return post("/v1/difference", {"a": a, "b": b})["deltaEOK"]


def tints(key):
    return [(name, {k: hexof(v) for k, v in values.items() if isinstance(v, dict)})
            for name, values in DATA["tints"][key].items() if name != "notes"]


CONFIGS = [
    ("3:1 on every surface (non-text), increased 4.5:1", {"target": 3}),
    ("HIG policy for tints (7:1 small text, increased 7:1)", {"policy": "hig"}),
    ("WCAG AA text (4.5:1, increased 7:1)", {"target": "AA"}),
]

print("Apple-likeness of POST /v1/palette/dark: ΔE OK between the generated variant of each light")
print("system tint and Apple's own value (12 tints per generation; 0.02 is about one JND).\n")
print(f"{'generation':<10} {'target':<52} {'variant':<24} {'mean':>6} {'max':>6}  worst")
summary = {}
for key, generation, title in GENERATIONS:
    colors = tints(key)
    # Baseline: the light tint used unchanged in dark mode.
    base = [delta_eok(v["light"], v["dark"]) for _, v in colors]
    print(f"{title:<10} {'(baseline: light tint unchanged)':<52} {'dark':<24} {sum(base)/len(base):6.4f} {max(base):6.4f}")
    # How many of Apple's own dark tints meet each target on every dark surface.
    for label, options in CONFIGS:
        body = {"colors": [{"name": n, "role": "tint", "color": v["light"]} for n, v in colors], "generation": generation}
        body.update(options)
        result = post("/v1/palette/dark", body)
        for variant, apple_key in VARIANTS:
            ds = []
            for (name, values), c in zip(colors, result["colors"]):
                ds.append((delta_eok(c["variants"][variant]["hex"], values[apple_key]), name))
            mean = sum(d for d, _ in ds) / len(ds)
            worst = max(ds)
            summary[(title, label, variant)] = (mean, worst[0])
            passing = sum(1 for c in result["colors"] if c["variants"][variant]["passes"])
            print(f"{title:<10} {label:<52} {variant:<24} {mean:6.4f} {worst[0]:6.4f}  {worst[1]} (passing {passing}/{len(colors)})")
        given = dict(body)
        given["colors"] = [{"name": n, "role": "tint", "color": v["light"], "dark": v["dark"],
                            "increasedContrast": v["light_IC"], "darkIncreasedContrast": v["dark_IC"]} for n, v in colors]
        apple = post("/v1/palette/dark", given)
        counts = {v: sum(1 for c in apple["colors"] if c["variants"][v]["passes"]) for v, _ in VARIANTS}
        print(f"{'':<10} {'  Apple’s own values meeting this target:':<52} " +
              ", ".join(f"{v} {n}/{len(colors)}" for v, n in counts.items()))
    print()
