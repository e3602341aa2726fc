"""The palette flow (contrast grid as JSON and SVG, downloads; dark variants and exports when the
server has them) and the image flow (before/after dimming and the download)."""
import time

import pytest
from conftest import DOWNLOADS, png_bytes

PALETTE = "ink: #1c1c1e\npaper: #ffffff\naccent: #007aff\nwarning: #ff9500"
# The page's own example palette, with the roles its names suggest.
PAGE_DEFAULT_PALETTE = [
    {"name": "ink", "color": "#1c1c1e", "role": "text"},
    {"name": "paper", "color": "#ffffff", "role": "background"},
    {"name": "accent", "color": "#007aff", "role": "tint"},
    {"name": "warning", "color": "#ff9500", "role": "text"},
    {"name": "muted", "color": "#8e8e93", "role": "text"},
]


def wait_for_download(pattern, timeout=15):
    """The finished download matching `pattern`. Chromium first creates an empty file under the
    final name, writes into a `.crdownload` beside it and renames that over it when done: a file
    is taken once it has bytes and no `.crdownload` is left (a CI run read the empty placeholder)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        pending = any(p.name.endswith(".crdownload") for p in DOWNLOADS.glob("*"))
        found = [p for p in DOWNLOADS.glob(pattern) if not p.name.endswith(".crdownload") and p.stat().st_size > 0]
        if found and not pending:
            return found[0]
        time.sleep(0.2)
    raise AssertionError(f"no finished download matching {pattern} in {DOWNLOADS}")


def clear_downloads():
    for p in DOWNLOADS.glob("*"):
        p.unlink()


def test_palette_grid_matches_the_matrix_endpoint(page, server):
    page.open()
    area = page.el("#palette-input")
    area.clear()
    area.send_keys(PALETTE)
    page.el("#palette-run").click()
    page.wait(lambda: page.el("#palette-results").is_displayed(), message="the grid")
    page.wait(lambda: page.els("#matrix-svg svg"), message="the SVG grid")
    colors = [{"name": n.split(":")[0], "color": n.split(":")[1].strip()} for n in PALETTE.split("\n")]
    status, matrix = server.api("/v1/contrast/matrix", body={"colors": colors})
    assert status == 200
    for i, row in enumerate(matrix["rows"]):
        for j, cell in enumerate(row):
            if i == j:
                continue
            td = page.el(f'#matrix-table td[data-row="{i}"][data-col="{j}"]')
            assert f"{cell['ratioText']}:1" in td.text
            assert ("✓" in td.text) == cell["AA"]["normalText"]
    page.screenshot("06-palette-light")

    clear_downloads()
    page.el('[data-matrix-download="csv"]').click()
    csv = wait_for_download("*.csv")
    text = csv.read_text()
    assert "ink" in text and "accent" in text
    page.el('[data-matrix-download="svg"]').click()
    svg = wait_for_download("*.svg")
    assert svg.read_text().lstrip().startswith("<svg")


def test_palette_error_names_the_line(page, server):
    page.open()
    area = page.el("#palette-input")
    area.clear()
    area.send_keys("ink: #1c1c1e\nbroken: #12345z")
    page.el("#palette-run").click()
    page.wait(lambda: page.text("#palette-error"), message="the palette error")
    assert "Line 2" in page.text("#palette-error")
    assert area.get_attribute("aria-invalid") == "true"


def check_web_palette(page, text):
    """Opens the page, checks `text` as a web page's palette under WCAG AA (the palette's own
    backgrounds) and waits for the variants; returns the text area."""
    page.open()
    area = page.el("#palette-input")
    area.clear()
    area.send_keys(text)
    page.select("#palette-surfaces", "palette")
    page.select("#palette-policy", "wcag-aa")
    page.el("#palette-run").click()
    page.wait(lambda: page.els("#variants-table tbody tr"), message="the variants")
    return area


def test_palette_for_a_web_page_judges_text_on_its_own_backgrounds(page, server):
    """A new user's pass: the panel sent no `on`, so a web palette's text was judged on Apple's
    system backgrounds, and `primary-foreground` was taken for a tint by its `primary`. With
    "this palette's backgrounds", the request places every color on the palette's backgrounds,
    without the elevated level, and the table shows the server's answer to that request."""
    check_web_palette(page, "background: #ffffff\nforeground: #09090b\nprimary-foreground: #fafafa\ncard: #f4f4f5")
    on = ["background", "card"]
    body = {"colors": [{"name": "background", "color": "#ffffff", "role": "background"},
                       {"name": "foreground", "color": "#09090b", "role": "text", "on": on},
                       {"name": "primary-foreground", "color": "#fafafa", "role": "text", "on": on},
                       {"name": "card", "color": "#f4f4f5", "role": "background"}],
            "policy": "wcag-aa", "elevated": False}
    status, expected = server.api("/v1/palette/dark", body=body)
    assert status == 200, expected
    page.wait(lambda: page.el('#variants-table tbody tr[data-name="primary-foreground"] td[data-variant="dark"]')
              .get_attribute("data-hex") == expected["colors"][2]["variants"]["dark"]["hex"], message="the web palette's variants")
    rows = page.els("#variants-table tbody tr")
    for row, color in zip(rows, expected["colors"]):
        assert row.find_element("css selector", ".hint").text.strip() == color["role"]
        for key, variant in color["variants"].items():
            assert row.find_element("css selector", f'td[data-variant="{key}"]').get_attribute("data-hex") == variant["hex"]
    # Judged on the palette's own backgrounds, not on Apple's system ones.
    worst = expected["colors"][1]["variants"]["light"]["worst"]
    assert worst["surface"].startswith("custom:"), worst


def test_palette_light_suggestions_can_be_applied_from_the_page(page, server):
    """A new user's pass: a failing light color's suggestion said "send adjustLight: true to use
    it", an API member the page had no control for. The hint now names the page's checkbox, and
    ticking it sends adjustLight: the light variant is then the server's adjusted color."""
    text = "background: #ffffff\nmuted: #999999"
    check_web_palette(page, text)
    cell = '#variants-table tbody tr[data-name="muted"] td[data-variant="light"]'
    page.wait(lambda: page.el(cell).get_attribute("data-hex"), message="the light variant")
    assert page.el(cell).get_attribute("data-hex") == "#999999"
    assert "tick “Use the suggested light color”" in page.el('#variants-table tbody tr[data-name="muted"]').text
    body = {"colors": [{"name": "background", "color": "#ffffff", "role": "background"},
                       {"name": "muted", "color": "#999999", "role": "text", "on": ["background"]}],
            "policy": "wcag-aa", "elevated": False, "adjustLight": True}
    status, expected = server.api("/v1/palette/dark", body=body)
    assert status == 200, expected
    adjusted = expected["colors"][1]["variants"]["light"]["hex"]
    assert adjusted != "#999999"
    page.el("#palette-adjust").click()
    page.el("#palette-run").click()
    page.wait(lambda: page.el(cell).get_attribute("data-hex") == adjusted, message="the adjusted light color")


def test_web_palette_pairs_a_text_with_its_fill_and_names_lines(page, server):
    """A new user's pass: `primary-foreground` and `onPrimary` were never judged on `primary`,
    `cardTitle` was guessed a background, and an error named the wrong line (blank lines were
    not counted) with the API's pointers in it."""
    area = check_web_palette(page, "background: #ffffff\nforeground: #0a0a0a\ncardTitle: #52525b\nprimary: #2563eb\nprimary-foreground: #f8fafc\nonPrimary: #ffffff")
    body = {"colors": [{"name": "background", "color": "#ffffff", "role": "background"},
                       {"name": "foreground", "color": "#0a0a0a", "role": "text", "on": ["background"]},
                       {"name": "cardTitle", "color": "#52525b", "role": "text", "on": ["background"]},
                       {"name": "primary", "color": "#2563eb", "role": "background"},
                       {"name": "primary-foreground", "color": "#f8fafc", "role": "text", "on": ["primary"]},
                       {"name": "onPrimary", "color": "#ffffff", "role": "text", "on": ["primary"]}],
            "policy": "wcag-aa", "elevated": False}
    status, expected = server.api("/v1/palette/dark", body=body)
    assert status == 200, expected
    page.wait(lambda: page.el('#variants-table tbody tr[data-name="onPrimary"] td[data-variant="dark"]')
              .get_attribute("data-hex") == expected["colors"][5]["variants"]["dark"]["hex"], message="the paired variants")
    for row, color in zip(page.els("#variants-table tbody tr"), expected["colors"]):
        assert row.find_element("css selector", ".hint").text.strip() == color["role"]
    # White on the blue button passes there, judged on it alone.
    assert expected["colors"][5]["variants"]["light"]["worst"]["surface"] == "custom:primary"
    # An error names the line it is on, blank lines counted, in lines rather than pointers.
    area.clear()
    area.send_keys("ink: #000000\n\npaper: #12345\nink: #111111")
    page.el("#palette-run").click()
    page.wait(lambda: page.text("#palette-error"), message="the palette error")
    # Said once: not "Line 3: line 3 is not a valid CSS color" (a new user's pass).
    said = page.text("#palette-error")
    assert said.startswith("Line 3 is not a valid CSS color:") and "line 3" not in said, said
    assert not page.el("#variants-block").is_displayed()


def test_palette_variants_and_exports(page, server):
    assert server.has("/v1/palette/dark"), "the server answers 404 for /v1/palette/dark"
    assert server.has("/v1/palette/export"), "the server answers 404 for /v1/palette/export"
    page.open()
    page.el("#palette-run").click()
    page.wait(lambda: page.el("#palette-results").is_displayed(), message="the grid")
    page.wait(lambda: page.els("#variants-table tbody tr"), message="the variants")
    status, expected = server.api("/v1/palette/dark", body={"colors": PAGE_DEFAULT_PALETTE, "policy": "hig"})
    assert status == 200, expected
    rows = page.els("#variants-table tbody tr")
    assert [r.get_attribute("data-name") for r in rows] == [c["name"] for c in expected["colors"]]
    for row, color in zip(rows, expected["colors"]):
        for key, variant in color["variants"].items():
            cell = row.find_element("css selector", f'td[data-variant="{key}"]')
            assert cell.get_attribute("data-hex") == variant["hex"]
            if variant.get("worst"):
                assert f"{variant['worst']['ratioText']}:1" in cell.text
    assert f"{expected['summary']['passing']} of {expected['summary']['colors']}" in page.text("#variants-status")
    page.screenshot("06b-palette-variants-light")
    for fmt, pattern, check in (("css", "*.css", lambda b: b"prefers-color-scheme" in b),
                                ("tokens", "*.json", lambda b: b"$value" in b),
                                ("xcassets", "*.zip", lambda b: b[:2] == b"PK"),
                                ("swift", "*.swift", lambda b: b"UIColor { traits in" in b and b"import SwiftUI" in b)):
        clear_downloads()
        page.el(f'[data-export-format="{fmt}"]').click()
        page.wait(lambda: "Downloaded" in page.text("#export-status"), message=f"the {fmt} export")
        assert check(wait_for_download(pattern).read_bytes()), fmt


@pytest.fixture
def white_image(tmp_path):
    """A screenshot-like PNG: white background, a blue block and dark 'text' stripes."""
    def pixel(x, y):
        if 30 <= x < 130 and 30 <= y < 90:
            return (0, 122, 255)
        if 150 <= x < 290 and y % 12 < 4 and 30 <= y < 150:
            return (28, 28, 30)
        return (255, 255, 255)
    path = tmp_path / "screenshot.png"
    path.write_bytes(png_bytes(320, 180, pixel))
    return path


def test_image_dimming_before_after_and_download(page, server, white_image):
    assert server.has("/v1/image/analyze"), "the server answers 404 for /v1/image/analyze"
    page.open(scheme="dark")
    page.el("#image-file").send_keys(str(white_image))
    page.wait(lambda: page.el("#image-results").is_displayed(), timeout=30, message="the dimmed image")
    status, analysis = server.api("/v1/image/analyze", {"systemBackground": "base"}, body=white_image.read_bytes())
    assert status == 200
    facts = page.text("#image-facts")
    assert analysis["recommendation"]["reason"] in facts
    assert analysis["recommendation"]["whiteLevel"]["after"]["hex"] in facts
    # Both pictures were drawn: the after canvas is darker than the before one where the image is white.
    before, after = page.d.execute_script("""
        const px = (id) => Array.from(document.getElementById(id).getContext('2d').getImageData(2, 2, 1, 1).data);
        return [px('image-before'), px('image-after')];""")
    assert before[:3] == [255, 255, 255]
    assert after[0] < 255 and after[0] == after[1] == after[2]
    page.screenshot("07-image-dark")
    clear_downloads()
    page.el("#image-download").click()
    out = wait_for_download("screenshot-dark.*")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_image_error_is_shown(page, server, tmp_path):
    assert server.has("/v1/image/analyze"), "the server answers 404 for /v1/image/analyze"
    bad = tmp_path / "not-an-image.png"
    bad.write_bytes(b"GIF89a this is not a PNG at all")
    page.open()
    page.el("#image-file").send_keys(str(bad))
    page.wait(lambda: page.text("#image-error"), timeout=20, message="the image error")
    assert page.el("#image-file").get_attribute("aria-invalid") == "true"


def test_image_drop(page, server, white_image):
    """Dropping a file on the box works like choosing it."""
    assert server.has("/v1/image/analyze"), "the server answers 404 for /v1/image/analyze"
    import base64
    page.open()
    page.d.execute_script("""
        const bytes = Uint8Array.from(atob(arguments[0]), c => c.charCodeAt(0));
        const dt = new DataTransfer();
        dt.items.add(new File([bytes], 'dropped.png', {type: 'image/png'}));
        const zone = document.getElementById('dropzone');
        zone.dispatchEvent(new DragEvent('dragover', {dataTransfer: dt, bubbles: true, cancelable: true}));
        zone.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
    """, base64.b64encode(white_image.read_bytes()).decode())
    page.wait(lambda: page.el("#image-results").is_displayed(), timeout=30, message="the dimmed image")
    assert "dropped.png" in page.text("#image-status")
    page.select("#image-background", "elevated")
    page.wait(lambda: "#1c1c1e" in page.text("#image-facts"), timeout=30, message="the elevated background")
