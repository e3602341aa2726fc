"""The pair: type or pick colors, read the ratio, verdicts and APCA Lc from the page, and compare
them with what the API answers for the same request."""
import pytest
from conftest import page_words


def api_contrast(server, **query):
    status, data = server.api("/v1/contrast", query)
    assert status == 200, data
    return data


def verdict_cell(page, key):
    return page.text(f'[data-verdict="{key}"]')


def test_static_files_have_types_and_caching(server):
    for path, kind, cache in (("/", "text/html", "no-cache"), ("/app.js", "text/javascript", "max-age"),
                              ("/style.css", "text/css", "max-age"), ("/js/api.js", "text/javascript", "max-age")):
        status, headers, body = server.request("GET", path)
        headers = {k.lower(): v for k, v in headers.items()}
        assert status == 200, path
        assert headers["content-type"].startswith(kind), (path, headers["content-type"])
        assert cache in headers["cache-control"], (path, headers["cache-control"])
        assert body


def test_page_has_no_inline_script_or_style(server):
    """The page must run under `Content-Security-Policy: default-src 'self'`: no inline scripts,
    no inline event handlers, no style attributes or <style> blocks in the HTML."""
    _, _, body = server.request("GET", "/")
    html = body.decode()
    import re
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline <script>"
    assert not re.search(r"\son[a-z]+\s*=", html), "inline event handler"
    assert not re.search(r"\sstyle\s*=", html), "style attribute"
    assert "<style" not in html, "<style> block"


def test_initial_pair_matches_the_api(page, server):
    page.open()
    expected = api_contrast(server, foreground="#777777", background="#ffffff", fontSize="16", fontSizeUnit="px", fontWeight="400")
    assert page.text("#ratio") == f"{expected['ratioText']}:1" == "4.47:1"
    assert verdict_cell(page, "AA.normalText") == "✗ Fail"
    assert verdict_cell(page, "AA.largeText") == "✓ Pass"
    assert verdict_cell(page, "AA.nonText") == "✓ Pass"
    assert verdict_cell(page, "AAA.normalText") == "✗ Fail"
    assert page.text("#apca-lc") == f"{expected['apca']['lc']:.1f}"
    page.screenshot("01-initial-light")


@pytest.mark.parametrize("fg,bg", [
    ("#000", "white"),
    ("rebeccapurple", "#fafafa"),
    ("oklch(70% 0.4 150)", "#1c1c1e"),   # outside sRGB: gamut-mapped by the API
    ("rgb(0 0 0 / 50%)", "#ffffff"),     # translucent text
    ("#767676", "#fff"),                 # the classic 4.54:1
])
def test_typing_updates_the_ratio_live(page, server, fg, bg):
    page.open()
    page.type("#fg-text", fg)
    page.type("#bg-text", bg)
    page.settle()
    expected = api_contrast(server, foreground=fg, background=bg)
    page.wait(lambda: page.text("#ratio") == f"{expected['ratioText']}:1", message=f"ratio {expected['ratioText']}")
    assert verdict_cell(page, "AA.normalText") == ("✓ Pass" if expected["wcag"]["AA"]["normalText"] else "✗ Fail")
    assert verdict_cell(page, "AAA.normalText") == ("✓ Pass" if expected["wcag"]["AAA"]["normalText"] else "✗ Fail")
    assert page.text("#apca-lc") == f"{expected['apca']['lc']:.1f}"
    # The picker follows the text field with the API's 8-bit hex.
    assert page.el("#fg-picker").get_attribute("value") == expected["foreground"]["hex"][:7]


def test_picker_sets_the_text_field(page, server):
    page.open()
    # A color input's popup cannot be driven by WebDriver; set it the way the popup does.
    page.d.execute_script("const p = document.getElementById('bg-picker'); p.value = '#102030';"
                          "p.dispatchEvent(new Event('input', {bubbles: true}));")
    page.settle()
    assert page.el("#bg-text").get_attribute("value") == "#102030"
    expected = api_contrast(server, foreground="#777777", background="#102030")
    assert page.text("#ratio") == f"{expected['ratioText']}:1"


def test_invalid_color_shows_the_api_error_next_to_the_field(page, server):
    page.open()
    page.type("#fg-text", "#ggg")
    page.settle()
    status, problem = server.api("/v1/contrast", {"foreground": "#ggg", "background": "#ffffff"})
    assert status == 400
    error = page.el("#fg-error")
    page.wait(lambda: error.text, message="the error message")
    assert page_words(problem["detail"]) in error.text
    field = page.el("#fg-text")
    assert field.get_attribute("aria-invalid") == "true"
    assert "fg-error" in field.get_attribute("aria-describedby").split()
    assert page.text("#bg-error") == ""
    page.screenshot("02-invalid-color-light")
    # Fixing it clears the message.
    page.type("#fg-text", "#333")
    page.settle()
    page.wait(lambda: page.text("#fg-error") == "", message="the error to clear")
    assert field.get_attribute("aria-invalid") is None


def test_error_on_the_background_and_unsupported_syntax(page, server):
    page.open()
    page.type("#bg-text", "currentcolor")
    page.settle()
    status, problem = server.api("/v1/contrast", {"foreground": "#777777", "background": "currentcolor"})
    assert status == 422
    page.wait(lambda: page_words(problem["detail"]) in page.text("#bg-error"), message="the 422 detail")
    assert page.el("#bg-text").get_attribute("aria-invalid") == "true"
    assert page.text("#fg-error") == ""


def test_swap_button(page, server):
    page.open()
    page.type("#fg-text", "#ffffff")
    page.type("#bg-text", "#0040dd")
    page.settle()
    page.el("#swap").click()
    page.settle()
    assert page.el("#fg-text").get_attribute("value") == "#0040dd"
    assert page.el("#bg-text").get_attribute("value") == "#ffffff"


def test_font_size_and_weight_decide_large_text(page, server):
    page.open()
    page.select("#font-unit", "pt")
    page.type("#font-size", "14")
    page.select("#font-weight", "700")
    page.settle()
    expected = api_contrast(server, foreground="#777777", background="#ffffff", fontSize="14", fontSizeUnit="pt", fontWeight="700")
    assert expected["text"]["isLarge"] is True
    assert page.text("#your-text-aa") == "✓ Pass"
    assert "large text" in page.text("#your-text-desc") and "not large" not in page.text("#your-text-desc")
    page.type("#font-size", "-3")
    page.settle()
    page.wait(lambda: page.text("#font-size-error"), message="the font size error")
    assert "The text size" in page.text("#font-size-error")
    # A size the browser cannot read as a number is said so, not "required when the weight is
    # given" (a new user's pass typed letters).
    page.type("#font-size", "1e")
    page.settle()
    page.wait(lambda: page.text("#font-size-error") == "The text size must be a number, such as 16.",
              message="the not-a-number size error")


def test_hex_moves_its_picker_while_the_other_field_is_invalid(page, server):
    """A new user's pass: '#fff' typed beside an invalid background left its picker at #000000."""
    page.open()
    page.type("#bg-text", "rgb(300 0")
    page.type("#fg-text", "#fff")
    page.settle()
    assert page.el("#fg-picker").get_attribute("value") == "#ffffff"


def test_url_fragment_keeps_the_pair(page, server):
    page.open(fragment="fg=%23333333&bg=%23eeeeee")
    expected = api_contrast(server, foreground="#333333", background="#eeeeee")
    assert page.text("#ratio") == f"{expected['ratioText']}:1"


def test_apple_system_colors_and_dynamic_type(page, server):
    assert server.has("/v1/system-colors", "GET"), "the server answers 404 for /v1/system-colors"
    page.open()
    page.type("#fg-text", "secondaryLabel")
    page.type("#bg-text", "systemBackground")
    page.select("#apple-context", "dark/elevated")
    page.settle()
    expected = api_contrast(server, foreground="secondaryLabel", background="systemBackground", appearance="dark",
                            level="elevated", contrast="standard", fontSize="16", fontSizeUnit="px", fontWeight="400")
    assert page.text("#ratio") == f"{expected['ratioText']}:1"
    assert any("secondaryLabel" in li.text for li in page.els("#result-notes li"))
    assert server.has("/v1/text-styles", "GET"), "the server answers 404 for /v1/text-styles"
    page.select("#text-style", "largeTitle")
    page.settle()
    assert not page.el("#size-field").is_displayed()
    assert "Large Title" in page.text("#your-text-desc")
    ts = api_contrast(server, foreground="secondaryLabel", background="systemBackground", appearance="dark",
                      level="elevated", contrast="standard", textStyle="largeTitle", contentSizeCategory="Large")
    assert page.text("#your-text-aa") == ("✓ Pass" if ts["textStyle"]["passes"]["AA"] else "✗ Fail")
    page.screenshot("03-system-colors-dark-elevated-light")


def test_token_field_when_the_server_needs_one(driver):
    """With bearer-token auth on, the page asks for the token and then works with it."""
    from conftest import page_words, Page, start_server, stop_server
    token = "browser-test-token-0123456789"
    proc, secured, log = start_server("auth", CONTRAST_AUTH_TOKENS=token)
    try:
        status, _ = secured.api("/v1/contrast", {"foreground": "#000", "background": "#fff"})
        assert status == 401, f"with CONTRAST_AUTH_TOKENS set, a request without the token got {status}"
        page = Page(driver, secured)
        page.open()
        box = page.el("#token-form")
        page.wait(box.is_displayed, message="the token field")
        assert page.text("#ratio") == "–"
        page.el("#api-token").send_keys(token)
        page.el("#token-form button").click()
        page.wait(lambda: page.text("#ratio") == "4.47:1", message="the ratio with the token")
        assert page.text("#global-status") == ""
        page.screenshot("12-token-light")
    finally:
        driver.execute_script("sessionStorage.clear()")
        stop_server(proc, log)


def test_hex_without_hash_and_css_color_5(page, server):
    """Hex as Figma copies it (no '#') and CSS Color 5 work in the page, with the API's note;
    an invalid input then clears the numbers instead of leaving the old ones beside the error."""
    page.open()
    page.type("#fg-text", "1F2937")
    page.settle()
    status, answer = server.api("/v1/contrast", {"foreground": "1F2937", "background": "#ffffff"})
    assert status == 200
    page.wait(lambda: page.text("#ratio") == f"{answer['ratioText']}:1", message="the ratio of 1F2937")
    assert page.el("#fg-picker").get_attribute("value") == "#1f2937"
    page.wait(lambda: "read as the hex color #1F2937" in page.text("#result-notes"), message="the bare-hex note")
    page.type("#fg-text", "color-mix(in oklab, #1F2937 50%, white)")
    page.settle()
    status, answer = server.api("/v1/contrast", {"foreground": "color-mix(in oklab, #1F2937 50%, white)", "background": "#ffffff"})
    assert status == 200
    page.wait(lambda: page.text("#ratio") == f"{answer['ratioText']}:1", message="the ratio of the color-mix()")
    # Invalid: no stale ratio next to the error.
    page.type("#fg-text", "color-mix(in srgb, red 120%, blue)")
    page.settle()
    page.wait(lambda: page.text("#fg-error") != "", message="the error")
    assert "between 0% and 100%" in page.text("#fg-error")
    assert page.text("#ratio") == "–"
    # Nor a preview in the last valid colors; it comes back with a valid input.
    assert not page.el("#preview").is_displayed()
    page.type("#fg-text", "#1F2937")
    page.settle()
    page.wait(lambda: page.el("#preview").is_displayed(), message="the preview again")


def test_gradient_background_says_where_its_weakest_point_is(page, server):
    """A new user's pass: with a gradient background the page showed its weakest ratio as if
    the background were one color, drew a solid box, moved the background picker to that color
    and showed the suggestions API's raw refusal. It now says the range and where the weakest
    point lies, draws the gradient, lists the API's fixes, and keeps suggestions aside."""
    gradient = "linear-gradient(to right, #0066cc, #ffcc00)"
    page.open(fragment="fg=%23777777&bg=" + gradient.replace("#", "%23").replace(" ", "%20"))
    page.d.execute_script("document.getElementById('bg-picker').value = '#123456'")
    page.type("#fg-text", "#777778")
    page.settle()
    d = api_contrast(server, foreground="#777778", background=gradient)
    g = d["gradient"]
    page.wait(lambda: page.text("#ratio-range").startswith("Gradient background:"), message="the gradient range")
    text = page.text("#ratio-range")
    assert f"from {g['min']['ratioText']}:1 at its weakest ({g['min']['background']}, {round(g['min']['position'] * 100)}% along it)" in text, text
    assert f"to {g['max']['ratioText']}:1" in text, text
    assert page.text("#ratio") == f"{d['ratioText']}:1"
    assert "linear-gradient" in page.d.execute_script("return document.getElementById('preview').style.backgroundImage")
    assert page.d.execute_script("return document.getElementById('bg-picker').value") == "#123456"
    notes = page.text("#result-notes")
    if d["fixes"]["scrim"]["recommended"]:
        assert "Fix: a " + d["fixes"]["scrim"]["recommended"] + " scrim" in notes, notes
    if server.has("/v1/suggest"):
        page.wait(lambda: "The background is a gradient" in page.text("#suggest-status"), message="the suggestions' gradient note")
    assert not page.console_problems()
