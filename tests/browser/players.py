"""Helpers of the players' browser tests: a device (a browser context that records every request
it sends), reading a QR code off the screen, what a player reads, and accessibility checks."""

from __future__ import annotations

import itertools
import re
import struct
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "table"
PHONE = {"width": 390, "height": 844}
NARROW = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
TIMEOUT_MS = 10_000
_STEPS = itertools.count(1)   # screenshots of a run sort in the order they were taken

# What a player must never read outside "Advanced": an identifier (snake_case), a card id
# (C7-4, S3-1, P4-2, capture-4, blue-3), a JSON brace, an HTTP status code, or a value
# written out by mistake (null, undefined).
FORBIDDEN = {
    "identifier": re.compile(r"\b[a-z]+_[a-z_]+\b"),
    "card id": re.compile(r"\b(?:[CSP]\d+-\d+|[a-z]+-\d+)\b"),
    "JSON": re.compile(r"[{}\[\]]"),
    "HTTP status": re.compile(r"\bHTTP\b|\b[45]\d\d\b"),
    "stray value": re.compile(r"null|undefined|NaN|\[object"),
}

# The text a player reads: visible text nodes, outside every <details> that is closed and
# outside the "Advanced" parts.
VISIBLE_TEXT = """() => {
  const skip = (node) => node.closest('#advanced, #created-advanced, #create-advanced, details:not([open])');
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const texts = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !node.textContent.trim() || parent.closest('script, style')) continue;
    if (parent.closest('summary')) { texts.push(node.textContent.trim()); continue; }
    if (skip(parent) || !parent.checkVisibility()) continue;
    texts.push(node.textContent.trim());
  }
  for (const option of document.querySelectorAll('select option')) {
    if (!skip(option) && option.closest('select').checkVisibility()) texts.push(option.textContent.trim());
  }
  return texts;
}"""

IN_VIEWPORT = """(selector) => {
  const node = document.querySelector(selector);
  if (!node) return false;
  const box = node.getBoundingClientRect();
  return box.bottom > 0 && box.top < window.innerHeight && box.height > 0;
}"""


class Device:
    """One phone (or screen): a browser context, its page, and every request line and Referer
    it sent."""

    def __init__(self, browser, service_url: str, name: str, viewport: dict, locale: str = "en-GB"):
        self.name = name
        self.context = browser.new_context(viewport=viewport, locale=locale)
        self.page = self.context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        self.sent: list[str] = []
        self.errors: list[str] = []
        self.page.on("request", self._request)
        self.page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        self.page.on("console", lambda message: self.errors.append(f"console: {message.text}")
                     if message.type == "error" else None)

    def _request(self, request) -> None:
        self.sent.append(f"{request.method} {request.url}")
        referer = request.headers.get("referer")
        if referer:
            self.sent.append(f"Referer: {referer}")

    def shot(self, folder: str, step: str) -> None:
        """A screenshot of what the device shows, kept as a test artifact."""
        target = ARTIFACTS / folder
        target.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(target / f"{next(_STEPS):04d}-{self.name}-{step}.png"))

    def close(self) -> None:
        self.context.close()


def _png_grey(data: bytes) -> tuple[int, int, bytes]:
    """Width, height and 8-bit grey pixels of a PNG screenshot (8-bit RGB or RGBA, not
    interlaced: what Chromium writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, idat, width, height, channels = 8, b"", 0, 0, 0
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        chunk = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and colour in (2, 6)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        position += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    grey = bytearray()
    for row in range(height):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        grey.extend(line[i] for i in range(0, stride, channels))
        previous = line
    return width, height, bytes(grey)


def read_qr(locator) -> str:
    """The text of the QR code a locator shows, read from a screenshot of it."""
    import zxingcpp

    width, height, grey = _png_grey(locator.screenshot())
    codes = zxingcpp.read_barcodes(memoryview(grey).cast("B", (height, width)), formats=zxingcpp.BarcodeFormat.QRCode)
    assert len(codes) == 1, f"{len(codes)} QR codes read"
    return codes[0].text


def words_problems(page) -> list[str]:
    """What a player reads that is not in players' words."""
    problems = []
    for text in page.evaluate(VISIBLE_TEXT):
        for name, pattern in FORBIDDEN.items():
            if pattern.search(text):
                problems.append(f"{name}: {text!r}")
    return problems


def check_screen(page, axe_results: list, screen: str) -> None:
    """Players' words only, no horizontal scroll, and no serious or critical axe violation."""
    from axe_playwright_python.sync_playwright import Axe

    assert words_problems(page) == [], screen
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), f"{screen}: horizontal scroll"
    results = Axe().run(page)
    serious = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
               for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    axe_results.append((screen, serious))
    assert serious == [], f"{screen}: {serious}"


def in_viewport(page, selector: str) -> bool:
    return page.evaluate(IN_VIEWPORT, selector)
