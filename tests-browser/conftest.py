"""Fixtures for the browser tests: the real server on a free port, headless Chromium through
Selenium, and helpers to ask the API directly (the page must show what the API says).

Environment:
  CONTRAST_SERVER_BIN  the contrast-server binary (default: .build/debug/contrast-server)
  CHROMIUM_BIN, CHROMEDRIVER_BIN  (default: /usr/bin/chromium, /usr/bin/chromedriver)
"""
import json
import os
import socket
import struct
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
import zlib
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

REPO = Path(__file__).resolve().parent.parent

# A test may be skipped only for a declared platform limit (something this machine cannot do,
# never "the server has no X yet"): skip with `platform_limit("why")`, or with a reason that
# starts with this prefix. Any other skip makes the run fail (see pytest_sessionfinish), so a
# missing endpoint or feature can never turn into a quiet skip.
PLATFORM_LIMIT = "platform limit: "


def platform_limit(reason):
    """Skips the current test for a declared platform limit."""
    pytest.skip(PLATFORM_LIMIT + reason)


_UNDECLARED_SKIPS = []


def _skip_reason(report):
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        reason = str(longrepr[2])
    else:
        reason = str(longrepr)
    return reason[len("Skipped: "):] if reason.startswith("Skipped: ") else reason


def pytest_runtest_logreport(report):
    if report.skipped and not hasattr(report, "wasxfail"):
        reason = _skip_reason(report)
        if not reason.startswith(PLATFORM_LIMIT):
            _UNDECLARED_SKIPS.append((report.nodeid, reason))


def pytest_sessionfinish(session, exitstatus):
    if _UNDECLARED_SKIPS:
        lines = [f"  {node}: {reason}" for node, reason in _UNDECLARED_SKIPS]
        print("\nskipped without a declared platform limit (reason must start with "
              f"{PLATFORM_LIMIT!r}):\n" + "\n".join(lines))
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
OUTPUT = REPO / "test-output"
SCREENSHOTS = OUTPUT / "screenshots"
DOWNLOADS = OUTPUT / "downloads"


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, base):
        self.base = base

    def request(self, method, path, query=None, body=None, headers=None):
        """(status, headers, bytes) for one request; never raises on HTTP errors."""
        url = self.base + path
        if query:
            url += "?" + urllib.parse.urlencode(query)
        data = None
        hdrs = dict(headers or {})
        if body is not None:
            if isinstance(body, (bytes, bytearray)):
                data = bytes(body)
            else:
                data = json.dumps(body).encode()
                hdrs.setdefault("Content-Type", "application/json")
        req = urllib.request.Request(url, data=data, method=method, headers=hdrs)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, dict(r.headers), r.read()
        except urllib.error.HTTPError as e:
            return e.code, dict(e.headers), e.read()

    def api(self, path, query=None, body=None, method=None):
        """(status, parsed JSON)."""
        status, _, raw = self.request(method or ("POST" if body is not None else "GET"), path, query, body)
        try:
            return status, json.loads(raw)
        except ValueError:
            return status, raw

    def has(self, path, method="POST"):
        """Whether the server has an endpoint (anything but 404 to an empty probe)."""
        status, _, _ = self.request(method, path, body={} if method == "POST" else None)
        return status != 404


def start_server(name="server", **extra_env):
    """Starts contrast-server on a free port from the repository root (its config.json, with
    --host/--port overriding it); returns (process, Server, log file)."""
    binary = Path(os.environ.get("CONTRAST_SERVER_BIN", REPO / ".build" / "debug" / "contrast-server"))
    if not binary.exists():
        pytest.exit(f"no server binary at {binary}: run `swift build` first or set CONTRAST_SERVER_BIN", returncode=2)
    port = _free_port()
    env = dict(os.environ, CONTRAST_PUBLIC_DIRECTORY=str(REPO / "Public"), CONTRAST_LOG_LEVEL="warn", **extra_env)
    OUTPUT.mkdir(exist_ok=True)
    log_path = OUTPUT / f"browser-tests-{name}.log"
    log = open(log_path, "wb")
    proc = subprocess.Popen([str(binary), "--host", "127.0.0.1", "--port", str(port)], cwd=REPO, env=env,
                            stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 30
    while True:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.time() > deadline:
            proc.kill()
            log.close()
            pytest.exit(f"the server did not start (see {log_path})", returncode=2)
        time.sleep(0.1)
    return proc, Server(base), log


def stop_server(proc, log):
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


@pytest.fixture(scope="session")
def server():
    proc, srv, log = start_server()
    yield srv
    stop_server(proc, log)


@pytest.fixture(scope="session")
def driver():
    DOWNLOADS.mkdir(parents=True, exist_ok=True)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,1000", "--force-device-scale-factor=1", "--lang=en-US",
                "--disable-extensions", "--no-first-run", "--no-default-browser-check"):
        options.add_argument(arg)
    options.add_experimental_option("prefs", {
        "download.default_directory": str(DOWNLOADS),
        "download.prompt_for_download": False,
    })
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver"))
    d = webdriver.Chrome(service=service, options=options)
    d.set_script_timeout(60)
    d.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(DOWNLOADS)})
    yield d
    d.quit()


class Page:
    """The page in one color scheme, with helpers that wait the way a person would look."""

    def __init__(self, driver, server):
        self.d = driver
        self.server = server

    def open(self, scheme="light", fragment="", width=None):
        if width:  # a phone-sized viewport (a headless window cannot be made narrower than ~500px)
            self.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": True})
        else:
            self.d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        self.d.execute_cdp_cmd("Emulation.setEmulatedMedia",
                               {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        self.d.get("about:blank")  # a new document every time, even when only the fragment differs
        self.d.get(self.server.base + "/" + (("#" + fragment) if fragment else ""))
        self.d.get_log("browser")  # start each test with a clean console log
        self.wait(lambda: self.d.execute_script("return document.body.dataset.features !== undefined"))
        self.settle()
        return self

    def wait(self, predicate, timeout=15, message="condition"):
        return WebDriverWait(self.d, timeout).until(lambda _: predicate(), message=f"timed out waiting for {message}")

    def settle(self, timeout=15):
        """Waits until the page has answered the last change (or shown its error)."""
        self.wait(lambda: self.d.execute_script("return document.body.dataset.state") in ("ready", "error"),
                  timeout, "the page to settle")

    def el(self, css):
        return self.d.find_element(By.CSS_SELECTOR, css)

    def els(self, css):
        return self.d.find_elements(By.CSS_SELECTOR, css)

    def text(self, css):
        return self.el(css).text

    def type(self, css, text):
        """Replaces a field's text by typing, as a person would (select all, then type)."""
        field = self.el(css)
        field.click()
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys(Keys.BACKSPACE)
        field.send_keys(text)

    def select(self, css, value):
        from selenium.webdriver.support.ui import Select
        Select(self.el(css)).select_by_value(value)

    def screenshot(self, name):
        """Saves the whole page (not only the window) as test-output/screenshots/NAME.png."""
        metrics = self.d.execute_cdp_cmd("Page.getLayoutMetrics", {})
        size = metrics.get("cssContentSize") or metrics["contentSize"]
        shot = self.d.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1},
        })
        import base64
        path = SCREENSHOTS / f"{name}.png"
        path.write_bytes(base64.b64decode(shot["data"]))
        return path

    def console_problems(self):
        """Console entries that mean the page is broken: script errors and CSP violations
        (failed probes of optional endpoints are expected 404s and are not counted)."""
        bad = []
        for entry in self.d.get_log("browser"):
            msg = entry.get("message", "")
            if "Content Security Policy" in msg or "Uncaught" in msg or (
                    entry.get("level") == "SEVERE" and entry.get("source") == "javascript"):
                bad.append(msg)
        return bad


@pytest.fixture
def page(driver, server):
    return Page(driver, server)


def png_bytes(width, height, pixel):
    """A truecolor PNG made here (no imaging library needed): `pixel(x, y)` -> (r, g, b)."""
    rows = bytearray()
    for y in range(height):
        rows.append(0)
        for x in range(width):
            rows.extend(pixel(x, y))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(rows))) + chunk(b"IEND", b""))


# What the page calls the fields the API's messages name by their query parameter (Public/js/api.js
# FIELD_WORDS): the page shows a problem's detail with these words.
FIELD_WORDS = {"foreground": "the text color", "background": "the background", "fontSize": "the text size",
               "fontWeight": "the weight", "fontSizeUnit": "the size unit", "textStyle": "the text style",
               "contentSizeCategory": "the text size category", "textColor": "the text color",
               "region": "the text box", "overlay": "the overlay", "backdrop": "the backdrop"}


def page_words(detail):
    """A problem's detail as the page shows it."""
    import re as _re
    text = _re.sub(r"query parameter '(\w+)'", lambda m: FIELD_WORDS.get(m.group(1), m.group(0)), detail)
    return "The " + text[4:] if text.startswith("the ") else text
