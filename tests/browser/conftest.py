"""Browser tests: Debian's headless Chromium driven by Playwright for Python, against the
service running in a real HTTP server on a free port."""

from __future__ import annotations

import shutil

import pytest

from referee.app import create_app
from tests.support.serving import serving

# Debian's packages (.ci/run installs one); Playwright's own browser download does not work here.
BROWSERS = ("chromium-headless-shell", "chromium")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str:
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    pytest.fail("No Chromium: install Debian's chromium-headless-shell (apt-get install chromium-headless-shell)")


@pytest.fixture(scope="module")
def service_url():
    """The service (in-process match store) in a threaded HTTP server on a free port."""
    with serving(create_app({"TESTING": True})) as port:
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="session")
def browser():
    """A headless Chromium for the whole run (each test opens its own contexts or pages)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=chromium_path(), headless=True, args=CHROMIUM_FLAGS)
        try:
            yield chromium
        finally:
            chromium.close()
