"""Design tokens: drop a token file, pick the convention, read every pair the API audits, failing
first, with the API's numbers and fixes (the page does no color math)."""
from conftest import REPO
from selenium.webdriver.common.keys import Keys

SHADCN = REPO / "Tests" / "Fixtures" / "tokens" / "tailwind" / "shadcn-v4" / "globals.css"


def audited(page):
    page.wait(lambda: page.d.execute_script("return document.getElementById('tokens-panel').dataset.state") in ("ready", "error"),
              timeout=40, message="the token audit")


def test_token_file_audited_failing_first(page, server):
    assert server.has("/v1/tokens/audit"), "the server answers 404 for /v1/tokens/audit"
    page.open()
    assert page.el("#tokens-panel").is_displayed()
    page.el("#tokens-file").send_keys(str(SHADCN))
    audited(page)
    # What the API says of the same file and preset.
    status, d = server.api("/v1/tokens/audit", body={
        "files": [{"name": "globals.css", "content": SHADCN.read_text()}], "preset": "shadcn",
        "policy": "wcag-aa", "unresolved": "report"})
    assert status == 200, d
    failing = [p for p in d["pairs"] if p["passes"] is False]
    assert failing and len(d["pairs"]) == d["summary"]["pairs"]
    summary = page.text("#tokens-summary")
    assert f"{d['summary']['failing']} of {d['summary']['pairs']} pairs fail" in summary, summary
    rows = page.els("#tokens-table tbody tr")
    assert len(rows) == len(d["pairs"])
    # Failing pairs first, each with the API's ratio and its suggested fix.
    for row, p in zip(rows, failing):
        cells = row.find_elements("css selector", "td")
        assert cells[0].text == p["mode"]
        assert p["foreground"]["token"] in cells[1].text and p["background"]["token"] in cells[2].text
        assert cells[4].text.startswith(p["ratioText"] + ":1"), cells[4].text
        assert "Fail" in cells[6].text
        assert p["suggestion"]["css"] in cells[7].text, cells[7].text
    assert "Pass" in rows[len(failing)].find_elements("css selector", "td")[6].text


def test_token_policy_and_own_rule(page, server):
    page.open()
    page.el("#tokens-file").send_keys(str(SHADCN))
    audited(page)
    page.select("#tokens-policy", "apca")
    page.wait(lambda: "Lc " in page.text("#tokens-table tbody tr td:nth-child(5)"), timeout=40, message="APCA values")
    # A rule of one's own: the last preset's pairs go away while its patterns are written, and
    # a missing pattern is named at its own field, not at the files.
    page.select("#tokens-preset", "custom")
    assert page.el("#tokens-rule").is_displayed()
    page.wait(lambda: not page.el("#tokens-results").is_displayed(), message="the preset's pairs taken away")
    page.el("#tokens-rule-fg").send_keys("--primary-foreground")
    page.el("#tokens-rule-run").click()
    page.wait(lambda: "Give both patterns" in page.text("#tokens-rule-error"), message="the missing pattern named")
    assert page.el("#tokens-rule-bg").get_attribute("aria-invalid") == "true"
    assert page.el("#tokens-file").get_attribute("aria-invalid") is None and page.text("#tokens-error") == ""
    page.el("#tokens-rule-bg").send_keys("--primary")
    page.el("#tokens-rule-run").click()
    page.wait(lambda: page.el("#tokens-results").is_displayed() and len(page.els("#tokens-table tbody tr")) == 2,
              timeout=40, message="the one rule's pairs (light, dark)")
    assert page.text("#tokens-rule-error") == "" and page.el("#tokens-rule-bg").get_attribute("aria-invalid") is None
    # With the rule made incomplete again, another policy does not leave the last answer under
    # it (a designer's pass: an AA table stayed under "WCAG AAA").
    bg = page.el("#tokens-rule-bg")
    bg.send_keys(Keys.CONTROL, "a")
    bg.send_keys(Keys.BACKSPACE)
    page.select("#tokens-policy", "wcag-aaa")
    page.wait(lambda: not page.el("#tokens-results").is_displayed(), message="the last answer taken away")
    assert "Give the two patterns" in page.text("#tokens-status")


def test_token_apca_values_cut_toward_their_verdict(page, server, tmp_path):
    # Lc 89.96 misses Lc 90: shown as 89.9, as the API's summary cuts it (it had read "90.0").
    f = tmp_path / "apca.css"
    f.write_text(":root { --muted: #fff; --muted-foreground: oklch(0.4125 0 0); }")
    status, d = server.api("/v1/tokens/audit", body={"files": [{"name": "apca.css", "content": f.read_text()}],
                                                      "rules": [{"foreground": "--muted-foreground", "background": "--muted"}],
                                                      "policy": "apca", "unresolved": "report"})
    pair = d["pairs"][0]
    assert pair["passes"] is False and 89.9 < abs(pair["apcaLc"]) < 90, pair
    page.open()
    page.select("#tokens-preset", "custom")
    page.el("#tokens-rule-fg").send_keys("--muted-foreground")
    page.el("#tokens-rule-bg").send_keys("--muted")
    page.select("#tokens-policy", "apca")
    page.el("#tokens-file").send_keys(str(f))
    page.el("#tokens-rule-run").click()
    page.wait(lambda: page.el("#tokens-results").is_displayed(), timeout=40, message="the APCA audit")
    cells = page.els("#tokens-table tbody tr td")
    assert cells[4].text.startswith("Lc 89.9") and "Fail" in cells[6].text, [c.text for c in cells]


def test_token_problems_shown_as_the_api_says(page, server, tmp_path):
    # A pair whose token cannot be resolved is listed, not measured, with the API's reason.
    dangling = tmp_path / "dangling.css"
    dangling.write_text(":root { --primary: #fff; --primary-foreground: var(--nope); }")
    page.open()
    page.el("#tokens-file").send_keys(str(dangling))
    audited(page)
    # Not called a pass: what was not measured is not known to pass (a new user's pass: "✓ Pass").
    summary = page.text("#tokens-summary")
    assert "Incomplete" in summary and "1 of 1 pairs could not be measured" in summary and "Pass" not in summary, summary
    row = page.el("#tokens-table tbody tr")
    assert "not measured" in row.text and "alias to '--nope'" in row.text and "dangling.css:1" in row.text, row.text
    assert page.el("#tokens-warnings").get_attribute("open") is not None
    # A file that is no token file at all: the API's 400, naming file, line and column.
    broken = tmp_path / "broken.tokens.json"
    broken.write_text('{"color": {')
    page.open()
    page.el("#tokens-file").send_keys(str(broken))
    page.wait(lambda: "broken.tokens.json line 1, column 12: not valid JSON" in page.text("#tokens-error"),
              timeout=40, message="the API's problem shown")
    assert not page.el("#tokens-results").is_displayed()


def test_token_fixes_translucency_and_same_named_files(page, server, tmp_path):
    # White on indigo: the text's fix would turn it dark, so the API moves the background; the
    # panel shows that fix first, as the reports do (a new user's pass: only #070707 was shown).
    indigo = tmp_path / "indigo.css"
    indigo.write_text(":root { --primary: #6366f1; --primary-foreground: #fff; --background: #fff; --foreground: #111;"
                      " --muted: #ffffff; --muted-foreground: #0000004d; }")
    page.open()
    page.el("#tokens-file").send_keys(str(indigo))
    audited(page)
    status, d = server.api("/v1/tokens/audit", body={
        "files": [{"name": "indigo.css", "content": indigo.read_text()}], "preset": "shadcn", "unresolved": "report"})
    primary = next(p for p in d["pairs"] if p["background"]["token"] == "--primary")
    row = next(r for r in page.els("#tokens-table tbody tr") if "--primary-foreground" in r.text)
    fix = row.find_elements("css selector", "td")[7].text
    assert fix.startswith("background --primary: " + primary["backgroundSuggestion"]["css"]), fix
    assert "or text --primary-foreground: " + primary["suggestion"]["css"] in fix, fix
    # A fix names the token to change, the pair's own, not the one its alias leads to (a
    # designer's pass read one token given two colors): --link is given its own value.
    alias = tmp_path / "alias.css"
    alias.write_text(":root { --accent: #6b7cff; --link: var(--accent); --surface: #eee; --bg: #fff; }")
    page.select("#tokens-preset", "custom")
    page.el("#tokens-rule-fg").send_keys("--link")
    page.el("#tokens-rule-bg").send_keys("--bg")
    page.el("#tokens-file").send_keys(str(alias))
    page.el("#tokens-rule-run").click()
    page.wait(lambda: "--link:" in page.text("#tokens-table tbody tr td.fix"), timeout=40, message="the alias's fix")
    assert "in place of its alias to --accent" in page.text("#tokens-table tbody tr td.fix")
    page.open()
    page.el("#tokens-file").send_keys(str(indigo))
    audited(page)
    # A translucent token keeps its alpha in the chip and the sample (it had been drawn solid).
    muted = next(r for r in page.els("#tokens-table tbody tr") if "--muted-foreground" in r.text)
    colors = page.d.execute_script("""
        const row = arguments[0];
        return [getComputedStyle(row.querySelector('td.token .chip > span')).backgroundColor,
                getComputedStyle(row.querySelector('.token-sample > span')).color];""", muted)
    assert colors[0] == "rgba(0, 0, 0, 0.3)" or colors[0].startswith("rgba(0, 0, 0, 0.3"), colors
    # Two files of one name (Tokens Studio's sets, one folder each) are refused by the page,
    # which says how to keep their paths (the API's "is given twice" was all it said).
    a, b = tmp_path / "light", tmp_path / "dark"
    a.mkdir(); b.mkdir()
    (a / "colors.json").write_text("{}"); (b / "colors.json").write_text("{}")
    page.open()
    page.el("#tokens-file").send_keys(str(a / "colors.json") + "\n" + str(b / "colors.json"))
    page.wait(lambda: "Two files are named colors.json" in page.text("#tokens-error"), message="the same name refused")
    assert "Choose a folder" in page.text("#tokens-error") and page.el("#tokens-folder").get_attribute("webkitdirectory") is not None


def test_token_folder_of_dtcg_files_and_bad_text(page, server, tmp_path):
    # A folder of DTCG `.tokens` files, one per mode in folders named so, keeps each file's path
    # (a hostile pass: the folder choice dropped `.tokens` files and then said nothing).
    root = tmp_path / "tokens"
    for mode, ink in (("light", "#767676"), ("dark", "#8a8a8a")):
        (root / mode).mkdir(parents=True)
        (root / mode / "colors.tokens").write_text(
            '{"color": {"$type": "color", "fg": {"$value": "%s"}, "bg": {"$value": "%s"}}}' % (ink, "#ffffff" if mode == "light" else "#000000"))
    page.open()
    page.select("#tokens-preset", "custom")
    page.el("#tokens-rule-fg").send_keys("color.fg")
    page.el("#tokens-rule-bg").send_keys("color.bg")
    page.el("#tokens-folder").send_keys(str(root))
    page.wait(lambda: "Audited:" in page.text("#tokens-files"), timeout=20, message="the folder read")
    assert "tokens/light/colors.tokens" in page.text("#tokens-files"), page.text("#tokens-files")
    page.el("#tokens-rule-run").click()
    page.wait(lambda: page.el("#tokens-results").is_displayed() and len(page.els("#tokens-table tbody tr")) == 2,
              timeout=40, message="both modes audited")
    # A file that is not UTF-8 is refused by the page, and the last answer taken away.
    latin = tmp_path / "latin.css"
    latin.write_bytes(":root { --primary: #fff; --primary-foreground: #000; } /* caf\xe9 */".encode("latin-1"))
    page.el("#tokens-file").send_keys(str(latin))
    page.wait(lambda: "is not UTF-8" in page.text("#tokens-error"), message="the Latin-1 file refused")
    assert not page.el("#tokens-results").is_displayed()
    # A folder with no token files says so.
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "readme.txt").write_text("no tokens here")
    page.open()
    page.el("#tokens-folder").send_keys(str(empty))
    page.wait(lambda: "holds no token files" in page.text("#tokens-error"), message="the empty folder named")
