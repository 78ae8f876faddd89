"""The widget's floating button stands out from any host page, and so does its focus ring: in
both colour schemes, on white, black, grey and blue pages (WCAG 1.4.11, 3:1), read from the
pixels Chromium draws along a line out of the button's right end.

Found in an accessibility pass: the button had no border (its fill about 2.1:1 against the
page) and its focus ring was the chat's one-colour outline, drawn on the host page's colour,
which is not citecast's: #f5a524 on a white page for a visitor who prefers dark was 2.04:1,
#b45309 on a #1f2937 page for one who prefers light 2.92:1.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from playwright.async_api import Browser, Page, Route, expect

from tests.connectors.browser.conftest import serve_answerer
from tests.connectors.browser.screen_pixels import RGB, contrast, hex_colour, png_pixels
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, passage

# host pages' own backgrounds: light, dark, the grey halfway between, and the button's own fill
# in either scheme (a page the button's colour leaves it only its edge)
PAGES = ("#ffffff", "#fafafa", "#1f2937", "#000000", "#767676", "#1d4ed8", "#8ab4ff")
Scheme = Literal["light", "dark"]
SCHEMES: tuple[Scheme, ...] = ("light", "dark")
INSIDE, OUTSIDE = 6, 16  # px of the line inside the button's right end and past it
SAME = 1.15  # neighbouring pixels closer than this are one band (a shadow's soft gradient)


@dataclass(frozen=True)
class Band:
    """Neighbouring pixels of one colour along the line, from the button outwards."""

    pixels: tuple[RGB, ...]

    @property
    def colour(self) -> RGB:
        return self.pixels[len(self.pixels) // 2]


def bands(line: list[RGB]) -> list[Band]:
    """``line`` cut where the colour changes."""
    runs: list[list[RGB]] = []
    for pixel in line:
        if runs and contrast(pixel, runs[-1][-1]) < SAME:
            runs[-1].append(pixel)
        else:
            runs.append([pixel])
    return [Band(tuple(run)) for run in runs]


def rings(focused: list[Band], changed: list[bool]) -> list[tuple[float, int]]:
    """Of each band between the fill and the page once focused: how far it stands out from both
    its neighbours (the lesser contrast), and how many of its pixels focusing changed."""
    found, start = [], len(focused[0].pixels)
    for at in range(1, len(focused) - 1):
        band, inner, outer = focused[at], focused[at - 1], focused[at + 1]
        ratio = min(contrast(band.colour, inner.pixels[-1]), contrast(band.colour, outer.pixels[0]))
        found.append((ratio, sum(changed[start : start + len(band.pixels)])))
        start += len(band.pixels)
    return found


async def line_out_of_the_button(page: Page) -> list[RGB]:
    """The pixels on the row through the button's middle, from INSIDE px within its right end
    to OUTSIDE px past it. The button's right end is whole pixels from the window's edge
    (``right: 20px``), so its edge and rings are drawn without blending into the next one."""
    box = await page.get_by_role("button", name="Ask citecast").bounding_box()
    assert box is not None
    right, middle = round(box["x"] + box["width"]), int(box["y"] + box["height"] / 2)
    shot = await page.screenshot(
        clip={"x": right - INSIDE, "y": middle, "width": INSIDE + OUTSIDE, "height": 1},
        animations="disabled",
    )
    return png_pixels(shot)[0]


def host_page(citecast_url: str, background: str) -> str:
    return (
        "<!doctype html><html lang='en'><title>Host</title>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<style>body {{ background: {background}; }}</style><h1>Host</h1>"
        f"<script src='{citecast_url}/widget.js' data-citecast async></script>"
    )


def serving(body: str) -> Callable[[Route], Awaitable[None]]:
    """A route handler answering with the HTML page ``body``."""

    async def fulfil(route: Route) -> None:
        await route.fulfill(content_type="text/html", body=body)

    return fulfil


@dataclass(frozen=True)
class Drawn:
    """The line out of the button, on one page in one scheme, before and after focus."""

    where: str
    page: RGB
    resting: list[RGB]
    focused: list[RGB]


async def draw(
    browser: Browser,
    citecast_url: str,
    scheme: Scheme,
    pages: tuple[str, ...] = PAGES,
    forced_colours: bool = False,
) -> list[Drawn]:
    """The line out of the button on each of ``pages``, for a visitor who prefers ``scheme``."""
    context = await browser.new_context(
        color_scheme=scheme,
        forced_colors="active" if forced_colours else "none",
        viewport={"width": 800, "height": 600},
    )
    found = []
    try:
        page = await context.new_page()
        for background in pages:
            url = f"{citecast_url}/host-{background[1:]}"
            await page.route(url, serving(host_page(citecast_url, background)))
            await page.goto(url)
            launcher = page.get_by_role("button", name="Ask citecast")
            await expect(launcher).to_be_visible()
            resting = await line_out_of_the_button(page)
            await page.keyboard.press("Tab")  # from the keyboard: :focus-visible
            await expect(launcher).to_be_focused()
            focused = await line_out_of_the_button(page)
            where = f"{scheme} scheme on a {background} page"
            found.append(Drawn(where, hex_colour(background), resting, focused))
    finally:
        await context.close()
    return found


async def test_the_buttons_edge_and_focus_ring_stand_out_from_any_page(
    browser: Browser, tmp_path: Path
) -> None:
    running = await serve_answerer(tmp_path, CannedAnswerer(cited_answer(passage(1))))
    try:
        drawn = [line for scheme in SCHEMES for line in await draw(browser, running.url, scheme)]
    finally:
        await running.stop()
    assert len(drawn) == len(PAGES) * len(SCHEMES)
    for line in drawn:
        # the line ends on the page itself (tinted a little by the button's drop shadow)
        assert contrast(line.resting[-1], line.page) < 1.25, (line.where, line.resting)
        assert contrast(line.focused[-1], line.page) < 1.25, (line.where, line.focused)
        resting, focused = bands(line.resting), bands(line.focused)
        # at rest: between the fill and the page, an edge 3:1 against the page
        page = resting[-1].pixels[0]
        edge = [contrast(band.colour, page) for band in resting[1:-1]]
        assert edge and max(edge) >= 3, (line.where, edge, resting)
        # focused: a ring, at least 2px of it changed by 3:1 (as WCAG 2.4.13 measures a focus
        # indicator), and it 3:1 against the colours on both its sides: the page, the button,
        # its other ring
        changed = [contrast(a, b) >= 3 for a, b in zip(line.resting, line.focused, strict=True)]
        ring = rings(focused, changed)
        assert any(ratio >= 3 and new >= 2 for ratio, new in ring), (line.where, ring, focused)


async def test_in_forced_colours_focusing_the_button_still_draws_a_ring(
    browser: Browser, tmp_path: Path
) -> None:
    """Forced colours (Windows high contrast) drop box-shadows, the ring above: the button's
    transparent outline is drawn in the system's colour instead."""
    running = await serve_answerer(tmp_path, CannedAnswerer(cited_answer(passage(1))))
    try:
        drawn = await draw(browser, running.url, "light", ("#ffffff",), forced_colours=True)
    finally:
        await running.stop()
    line = drawn[0]
    changed = [contrast(a, b) >= 3 for a, b in zip(line.resting, line.focused, strict=True)]
    widest = max(len(run) for run in "".join("x" if c else " " for c in changed).split(" "))
    assert widest >= 2, (line.resting, line.focused)
