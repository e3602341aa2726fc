"""Text over an image: drop a picture, place the text box (typed and dragged), read the
distribution the API gives, see the heat map and the picture with a scrim (issue #20)."""
import base64

import pytest
from conftest import png_bytes
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

W, H = 200, 120


@pytest.fixture
def half_image(tmp_path):
    """Left half black, right half white: white text passes on the left (21:1), fails on the right (1:1)."""
    path = tmp_path / "half.png"
    path.write_bytes(png_bytes(W, H, lambda x, y: (0, 0, 0) if x < W // 2 else (255, 255, 255)))
    return path


def state(page):
    return page.d.execute_script("return document.body.dataset.tiState")


def measured(page, region):
    """Waits until the page has measured `region` (its status says so)."""
    page.wait(lambda: f"box {region} measured" in page.text("#ti-status") and state(page) == "ready",
              timeout=40, message=f"the measurement of {region}")


def set_region(page, region):
    field = page.el("#ti-region")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(Keys.BACKSPACE)
    field.send_keys(region, Keys.TAB)


def picture_measured(page, path, region):
    """Opens the page, drops the picture at `path` and waits until `region` is measured."""
    page.open()
    page.el("#ti-file").send_keys(str(path))
    page.wait(lambda: page.el("#ti-work").is_displayed(), timeout=30, message="the picture")
    set_region(page, region)
    measured(page, region)


def canvas_pixel(page, canvas_id, fx, fy):
    return page.d.execute_script("""
        const c = document.getElementById(arguments[0]);
        return Array.from(c.getContext('2d').getImageData(Math.floor(c.width * arguments[1]), Math.floor(c.height * arguments[2]), 1, 1).data);
    """, canvas_id, fx, fy)


def test_text_over_image_panel(page, server, half_image):
    assert server.has("/v1/image/text-contrast"), "the server answers 404 for /v1/image/text-contrast"
    page.open()
    assert page.el("#ti-panel").is_displayed()
    page.el("#ti-file").send_keys(str(half_image))
    page.wait(lambda: page.el("#ti-work").is_displayed(), timeout=30, message="the picture")

    # The black half: white 24 px text passes, and the page says what the API says.
    set_region(page, "0,0,100,120")
    measured(page, "0,0,100,120")
    query = {"textColor": "white", "region": "0,0,100,120", "target": "AA", "fontSize": "24", "fontSizeUnit": "px"}
    status, answer = server.api("/v1/image/text-contrast", query, body=half_image.read_bytes())
    assert status == 200, answer
    assert answer["passes"] is True
    assert page.el("#ti-verdict").get_attribute("data-passes") == "true"
    assert "21.00:1" in page.text("#ti-facts")
    assert "already passes" in page.text("#ti-fixes")

    # The white half fails: the heat map is red, the fixes are listed, the gradient scrim is drawn.
    set_region(page, "100,0,100,120")
    measured(page, "100,0,100,120")
    assert page.el("#ti-verdict").get_attribute("data-passes") == "false"
    assert "100.0% of the pixels fail" in page.text("#ti-facts")
    r, g, b, _ = canvas_pixel(page, "ti-heatmap", 0.5, 0.5)
    assert r > g and r > b, (r, g, b)
    fixes = page.text("#ti-fixes")
    assert "rgb(0 0 0 /" in fixes and "Gradient scrim" in fixes and "brightness(" in fixes
    page.select("#ti-scrim", "gradient")
    page.wait(lambda: page.el("#ti-preview").get_attribute("data-scrim").startswith("linear-gradient(to "),
              timeout=40, message="the gradient scrim preview")
    # The preview darkened the white half under the box, and left the black half black.
    assert canvas_pixel(page, "ti-preview", 0.9, 0.9)[0] < 200
    assert canvas_pixel(page, "ti-preview", 0.1, 0.5)[:3] == [0, 0, 0]
    assert page.text("#ti-scrim-status").startswith("Applied: linear-gradient(to "), page.text("#ti-scrim-status")
    page.screenshot("08-text-over-image")
    page.el("#ti-panel").screenshot(str(page.screenshot("08-text-over-image").parent / "08b-text-over-image-panel.png"))
    # No white scrim helps white text: said, not only drawn unchanged (a new user's pass, stop 39).
    page.select("#ti-scrim", "white")
    page.wait(lambda: page.text("#ti-scrim-status") == "No white scrim makes the text pass: the image is shown unchanged.",
              timeout=40, message="the missing white scrim said")
    page.select("#ti-scrim", "gradient")
    page.wait(lambda: page.text("#ti-scrim-status").startswith("Applied: linear-gradient(to "), timeout=40, message="the gradient scrim again")

    # Dragging on the picture draws a new box over the black half; it is measured again.
    canvas = page.el("#ti-canvas")
    size = canvas.size
    ActionChains(page.d).move_to_element_with_offset(canvas, -size["width"] // 2 + 5, -size["height"] // 2 + 5) \
        .click_and_hold().move_by_offset(size["width"] // 4, size["height"] // 2).release().perform()
    page.wait(lambda: page.el("#ti-region").get_attribute("value") not in ("100,0,100,120", ""),
              timeout=10, message="the dragged box")
    region = page.el("#ti-region").get_attribute("value")
    x, y, w, h = (int(v) for v in region.split(","))
    assert x < 10 and y < 10 and 0 < w and x + w <= W // 2 + 2, region
    measured(page, region)
    # Arrow keys move the box (keyboard users).
    page.el("#ti-stage").send_keys(Keys.ARROW_RIGHT)
    page.wait(lambda: page.el("#ti-region").get_attribute("value") != region, timeout=10, message="the moved box")
    assert not page.console_problems()


def test_text_over_image_names_the_bad_field(page, server, half_image):
    page.open()
    page.el("#ti-file").send_keys(str(half_image))
    page.wait(lambda: page.el("#ti-work").is_displayed(), timeout=30, message="the picture")
    page.type("#ti-color", "notacolor")
    page.wait(lambda: page.text("#ti-error"), timeout=30, message="the text color error")
    assert page.el("#ti-color").get_attribute("aria-invalid") == "true"
    # Said as the pair's errors are (a new user's pass: "query parameter 'textColor' …").
    assert page.text("#ti-error").startswith("The text color "), page.text("#ti-error")
    page.type("#ti-color", "white")
    page.wait(lambda: not page.text("#ti-error") and state(page) == "ready", timeout=30, message="the error to clear")
    set_region(page, "150,0,100,120")   # not inside the 200-pixel-wide image
    page.wait(lambda: page.text("#ti-error").startswith("The text box "), timeout=30, message="the region error")
    assert page.el("#ti-region").get_attribute("aria-invalid") == "true"


def test_text_over_image_drop(page, server, half_image):
    page.open()
    page.d.execute_script("""
        const bytes = Uint8Array.from(atob(arguments[0]), c => c.charCodeAt(0));
        const dt = new DataTransfer();
        dt.items.add(new File([bytes], 'dropped.png', {type: 'image/png'}));
        const zone = document.getElementById('ti-dropzone');
        zone.dispatchEvent(new DragEvent('dragover', {dataTransfer: dt, bubbles: true, cancelable: true}));
        zone.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
    """, base64.b64encode(half_image.read_bytes()).decode())
    page.wait(lambda: "dropped.png" in page.text("#ti-status"), timeout=40, message="the first measurement")
    assert page.el("#ti-results").is_displayed()


def test_text_over_image_overlay(page, server, half_image):
    """The design's own layer over the picture (a card's bg-black/40): the white half under
    black at 0.6 is #666666, where white text passes (5.74:1); a bad overlay names its field."""
    picture_measured(page, half_image, "100,0,100,120")
    assert page.el("#ti-verdict").get_attribute("data-passes") == "false"
    page.type("#ti-overlay", "rgb(0 0 0 / 0.6)")
    page.wait(lambda: page.el("#ti-verdict").get_attribute("data-passes") == "true" and state(page) == "ready",
              timeout=40, message="the measurement with the overlay")
    assert "5.74:1" in page.text("#ti-facts"), page.text("#ti-facts")
    page.type("#ti-overlay", "dark")
    page.wait(lambda: page.text("#ti-error"), timeout=30, message="the overlay error")
    assert page.el("#ti-overlay").get_attribute("aria-invalid") == "true"
    assert "overlay" in page.text("#ti-error")
    assert not page.console_problems()


def test_text_over_image_says_what_a_fix_leaves(page, server, tmp_path):
    """A new user's pass: a passing text was told "no scrim makes the text pass", a text color
    that turns white text dark was shown as a plain pass, 0.004% of pixels failing read "0.0%",
    and the red worst-area outline stayed put when the window was resized."""
    speck = tmp_path / "speck.png"
    speck.write_bytes(png_bytes(W, H, lambda x, y: (255, 255, 255) if (x, y) == (150, 60) else (0, 0, 0)))
    gray = tmp_path / "gray.png"
    # Wide enough to be drawn at the panel's full width, which a narrow window shrinks.
    gray.write_bytes(png_bytes(900, 200, lambda x, y: (200, 200, 200) if x >= 450 else (0, 0, 0)))
    picture_measured(page, speck, "0,0,200,120")
    assert page.el("#ti-verdict").get_attribute("data-passes") == "true"
    assert "under 0.1% of the pixels fail" in page.text("#ti-facts"), page.text("#ti-facts")
    page.wait(lambda: page.text("#ti-scrim-status") == "No scrim is needed: the text already passes, and the image is shown unchanged.",
              timeout=40, message="no scrim needed")

    # The gray picture in a narrow window, then widened: the outline follows the canvas.
    page.d.set_window_size(520, 1000)
    try:
        page.el("#ti-file").send_keys(str(gray))
        page.wait(lambda: state(page) == "ready", timeout=40, message="the gray picture")
        set_region(page, "450,0,450,200")
        measured(page, "450,0,450,200")
        status, answer = server.api("/v1/image/text-contrast", {"textColor": "white", "region": "450,0,450,200"}, body=gray.read_bytes())
        assert status == 200 and answer["fixes"]["textColor"]["reversesPolarity"] is True, answer
        assert "Note: " + answer["fixes"]["textColor"]["note"] in page.text("#ti-fixes"), page.text("#ti-fixes")

        def canvas_width():
            return page.d.execute_script("return document.getElementById('ti-canvas').getBoundingClientRect().width")

        def outline_fraction():
            return page.d.execute_script("""
                const c = document.getElementById('ti-canvas').getBoundingClientRect();
                const w = document.getElementById('ti-worst').getBoundingClientRect();
                return (w.left - c.left) / c.width;""")
        worst_x = answer["worstArea"]["x"] / 900
        assert abs(outline_fraction() - worst_x) < 0.02, (outline_fraction(), worst_x)
        narrow = canvas_width()
        page.d.set_window_size(1280, 1000)
        page.wait(lambda: canvas_width() != narrow, timeout=10, message="the canvas drawn wider")
        page.wait(lambda: abs(outline_fraction() - worst_x) < 0.02, timeout=10, message="the outline placed again")
    finally:
        page.d.set_window_size(1280, 1000)
