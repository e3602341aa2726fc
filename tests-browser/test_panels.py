"""Light/dark tiles with the label hierarchy, color-vision simulation, and the suggestions panel
(which must be hidden when the server has no /v1/suggest)."""
import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.support.ui import WebDriverWait


def test_tiles_show_light_dark_base_and_elevated(page, server):
    page.open(fragment="fg=label&bg=%23ffffff")
    assert server.has("/v1/system-colors", "GET"), "the server answers 404 for /v1/system-colors"
    tiles = page.els(".tile")
    assert [t.find_element("css selector", "h3").text for t in tiles] == ["Light", "Dark base", "Dark elevated"]
    contexts = [("light", "base", "#ffffff"), ("dark", "base", "#000000"), ("dark", "elevated", "#1c1c1e")]
    for tile, (appearance, level, _plain) in zip(tiles, contexts):
        query = {"foreground": "label", "background": "systemBackground",
                 "fontSize": "16", "fontSizeUnit": "px", "fontWeight": "400",
                 "appearance": appearance, "level": level, "contrast": "standard"}
        status, expected = server.api("/v1/contrast", query)
        assert status == 200
        assert f"{expected['ratioText']}:1" in tile.find_element("css selector", ".tile-facts").text
    assert server.has("/v1/labels", "GET"), "the server answers 404 for /v1/labels"
    status, labels = server.api("/v1/labels", {"contrast": "standard", "background": "systemBackground"})
    assert status == 200
    for tile, ctx in zip(tiles, labels["contexts"][:3]):
        rows = tile.find_elements("css selector", ".label-row")
        assert [r.get_attribute("data-label") for r in rows] == [l["name"] for l in ctx["labels"]]
        assert [r.find_element("css selector", ".num").text for r in rows] == \
            [f"{l['on'][0]['ratioText']}:1" for l in ctx["labels"]]
    # The hierarchy built from the person's own color.
    page.type("#fg-text", "#0a84ff")
    page.el("#custom-labels").click()
    page.settle()
    status, custom = server.api("/v1/labels", {"contrast": "standard", "background": "systemBackground",
                                               "labelColor": "#0a84ff"})
    want = [f"{l['on'][0]['ratioText']}:1" for l in custom["contexts"][1]["custom"]["labels"]]
    # The custom group is drawn after its own request answers, which may come after the page
    # has settled on the click's first redraw: wait for it rather than read it at once (a CI
    # run read it empty).
    def custom_ratios():
        try:
            tile = page.els(".tile")[1]
            return [e.text for e in tile.find_elements("css selector", ".label-group:nth-of-type(2) .num")]
        except StaleElementReferenceException:  # redrawn while read
            return None
    page.wait(lambda: custom_ratios() == want, message=f"the custom labels {want}")
    assert custom_ratios() == want


def test_feature_probes_leave_the_console_clean(driver, server):
    """A new user's pass: every page load logged five 400/415 errors, the empty POSTs that asked
    which optional routes the server has. OPTIONS asks without them (204, or 404 when absent)."""
    driver.get("about:blank")
    driver.get_log("browser")
    driver.get(server.base + "/")
    WebDriverWait(driver, 15).until(lambda d: d.execute_script("return document.body.dataset.features !== undefined"))
    WebDriverWait(driver, 15).until(lambda d: d.execute_script("return document.body.dataset.state") in ("ready", "error"))
    noisy = [e["message"] for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    assert noisy == [], noisy
    assert "textImage" in driver.execute_script("return document.body.dataset.features")


def test_color_vision_cards_despite_the_per_client_limit(driver):
    """A new user's pass: the page's four simulations at once passed heavyPerClientLimit (3), and
    about one page load in ten showed three cards and the 429. With the limit at 1 every card
    still comes, each request retried when the server's Retry-After says."""
    from conftest import Page, start_server, stop_server
    proc, strict, log = start_server("heavy-limit-1", CONTRAST_HEAVY_PER_CLIENT_LIMIT="1")
    try:
        page = Page(driver, strict)
        page.open(fragment="fg=%23d62728&bg=%232ca02c")
        kinds = ["protanopia", "deuteranopia", "tritanopia", "achromatopsia"]

        def drawn():
            try:
                return [c.get_attribute("data-type") for c in page.els(".cvd-card")]
            except StaleElementReferenceException:
                return None
        page.wait(lambda: drawn() == kinds, timeout=30, message="the four simulation cards with heavyPerClientLimit 1")
        assert page.text("#cvd-error") == ""
        # The page's own request function, 12 heavy requests at once (the cards alone need the
        # requests to overlap, which they do about one load in ten): every one is answered.
        statuses = page.d.execute_async_script("""
            const done = arguments[arguments.length - 1];
            import('/js/api.js').then(({ api }) => Promise.all(Array.from({ length: 12 }, () => api('/v1/simulate', {
              method: 'POST', json: { colors: [{ name: 'a', color: '#d62728' }], type: 'deuteranopia' } }))))
              .then((rs) => done(rs.map((r) => r.status)), (e) => done(String(e)));""")
        assert statuses == [200] * 12, statuses
    finally:
        stop_server(proc, log)


def test_color_vision_simulation(page, server):
    page.open(fragment="fg=%23d62728&bg=%232ca02c")
    # The cards are drawn one by one as the answers come: wait for all four (a fresh-clone CI
    # run read three, the last still being drawn).
    kinds = ["protanopia", "deuteranopia", "tritanopia", "achromatopsia"]

    def drawn():
        try:
            return [c.get_attribute("data-type") for c in page.els(".cvd-card")]
        except StaleElementReferenceException:  # redrawn while read
            return None
    page.wait(lambda: drawn() == kinds, message="the four simulation cards")
    cards = page.els(".cvd-card")
    assert [c.get_attribute("data-type") for c in cards] == kinds
    status, sim = server.api("/v1/simulate", body={
        "colors": [{"name": "foreground", "color": "#d62728"}, {"name": "background", "color": "#2ca02c"}],
        "type": "deuteranopia", "severity": 1, "pairs": [{"foreground": "foreground", "background": "background"}]})
    assert status == 200
    deut = cards[1]
    assert deut.find_element("css selector", ".cvd-ratio").text == f"{sim['pairs'][0]['simulatedRatioText']}:1"
    # Severity is sent to the API.
    page.d.execute_script("const s = document.getElementById('cvd-severity'); s.value = '0.5';"
                          "s.dispatchEvent(new Event('input', {bubbles: true})); s.dispatchEvent(new Event('change', {bubbles: true}));")
    page.settle()
    status, half = server.api("/v1/simulate", body={
        "colors": [{"name": "foreground", "color": "#d62728"}, {"name": "background", "color": "#2ca02c"}],
        "type": "deuteranopia", "severity": 0.5, "pairs": [{"foreground": "foreground", "background": "background"}]})
    page.wait(lambda: page.els(".cvd-card")[1].find_element("css selector", ".cvd-ratio").text
              == f"{half['pairs'][0]['simulatedRatioText']}:1", message="the severity 0.5 ratio")
    assert "0.5" in page.text("#cvd-severity-value")
    page.screenshot("04-color-vision-light")


def test_suggestions_apply_with_one_click(page, server):
    assert server.has("/v1/suggest"), "the server answers 404 for /v1/suggest"
    page.open(fragment="fg=%23999999&bg=%23ffffff")
    page.select("#suggest-target", "AA")
    page.settle()
    status, expected = server.api("/v1/suggest", body={"foreground": "#999999", "background": "#ffffff", "target": "AA",
                                                       "move": "foreground", "appearance": "light", "level": "base",
                                                       "contrast": "standard"})
    assert status == 200 and not expected["passes"]
    found = [s for s in expected["suggestions"] if s["found"]]
    page.wait(lambda: len(page.els("#suggestions li:not(.not-found)")) == len(found), message="suggestions")
    items = page.els("#suggestions li")
    assert [i.get_attribute("data-direction") for i in items] == [s["direction"] for s in expected["suggestions"]]
    for s, li in zip(expected["suggestions"], items):
        if s["found"]:
            assert f"{s['ratioText']}:1" in li.text
        else:
            assert s["reason"] in li.text
    page.screenshot("05-suggestions-light")
    first = page.els("#suggestions li:not(.not-found)")[0]
    hex_ = first.get_attribute("data-foreground")
    first.find_element("css selector", "button").click()
    page.settle()
    assert page.el("#fg-text").get_attribute("value") == hex_
    assert page.d.execute_script("return document.activeElement.id") == "fg-text"
    status, after = server.api("/v1/contrast", {"foreground": hex_, "background": "#ffffff"})
    assert status == 200 and after["wcag"]["AA"]["normalText"], "the applied suggestion passes AA"
    assert page.text('[data-verdict="AA.normalText"]') == "✓ Pass"
    # Once it passes the panel says so and offers nothing.
    page.wait(lambda: "already meets" in page.text("#suggest-status"), message="the 'already passes' note")
    assert page.els("#suggestions li") == []
