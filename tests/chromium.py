"""Debian's headless Chromium for the browser tests (Playwright never downloads a browser).

``.ci/run`` installs the ``chromium`` package; the flags keep it off the network (this machine
has none) and out of first-run and background work.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from playwright.async_api import Browser, async_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"


@asynccontextmanager
async def launch_chromium() -> AsyncIterator[Browser]:
    """A headless Chromium, closed on exit."""
    assert Path(CHROMIUM).exists(), "install Debian's chromium (apt-get install chromium)"
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield browser
        finally:
            await browser.close()


def artifact(name: str) -> Path:
    """Where a screenshot goes (test-artifacts/, gitignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / name
