"""The chat's colours keep WCAG AA contrast (4.5:1 for text, 3:1 for focus outlines, the
question box's border and the buttons' shapes, WCAG 1.4.11), as chat.css promises, in the light
palette and in the dark one (``prefers-color-scheme: dark``).

The pairs are the ones the page actually draws text with: each names the CSS variable for the
text and for what it sits on, read from each palette. Every colour chat.css draws with is such a
variable (but the decorative logo), so the dark palette leaves nothing light behind. Every
outline in chat.css and the question box's border are checked against every background they can
sit on.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

CSS = (Path(__file__).resolve().parents[3] / "bot/connectors/static/chat.css").read_text("utf-8")
PALETTE_SELECTOR = ":root, .cc-launcher, .cc-panel {"
DARK_MEDIA = "@media (prefers-color-scheme: dark) {"
COLOUR_VARIABLE = re.compile(r"(--cc-[a-z-]+):\s*(#[0-9a-fA-F]{6})\s*;")
HEX = re.compile(r"#[0-9a-fA-F]{3,8}\b")


def block_after(marker: str, start: int = 0) -> tuple[int, int]:
    """The span of the ``{...}`` block that ``marker`` (ending in "{") opens, from ``start``."""
    opened = CSS.index(marker, start) + len(marker)
    depth, at = 1, opened
    while depth:
        depth += {"{": 1, "}": -1}.get(CSS[at], 0)
        at += 1
    return opened, at - 1


LIGHT_SPAN = block_after(PALETTE_SELECTOR)
DARK_MEDIA_SPAN = block_after(DARK_MEDIA) if DARK_MEDIA in CSS else (0, 0)
DARK_SPAN = block_after(PALETTE_SELECTOR, DARK_MEDIA_SPAN[0]) if DARK_MEDIA in CSS else (0, 0)
LIGHT = dict(COLOUR_VARIABLE.findall(CSS[slice(*LIGHT_SPAN)]))
DARK = {**LIGHT, **dict(COLOUR_VARIABLE.findall(CSS[slice(*DARK_SPAN)]))}
PALETTES = {"light": LIGHT, "dark": DARK}

# (text, background, where)
PAIRS = [
    ("--cc-text", "--cc-bg", "page text"),
    ("--cc-text", "--cc-card", "answer text, a question box, buttons"),
    ("--cc-text", "--cc-subtle", "table headers, inline code in a source's quote"),
    ("--cc-muted", "--cc-bg", "status line, hints"),
    ("--cc-muted", "--cc-card", "source details, the placeholder, the widget's close button"),
    ("--cc-accent", "--cc-card", "links (visited too) and source titles"),
    ("--cc-accent", "--cc-bg", "links on the shared answer page's background"),
    ("--cc-accent-dark", "--cc-accent-soft", "citation numbers, a pressed vote"),
    ("--cc-accent-dark", "--cc-card", "the Back button, the skip link, a hovered button"),
    ("--cc-on-accent", "--cc-accent", "the question, Ask, the widget button, a focused citation"),
    ("--cc-on-accent", "--cc-accent-dark", "Ask and the widget button hovered"),
    ("--cc-on-disabled", "--cc-disabled", "Ask while answering"),
    ("--cc-error", "--cc-card", "errors"),
    ("--cc-error", "--cc-bg", "an error in the status line"),
    ("--cc-error", "--cc-error-soft", "a failed answer"),
    ("--cc-weak", "--cc-card", "weak citations"),
    ("--cc-code-text", "--cc-code-bg", "code blocks"),
    ("--cc-tip-text", "--cc-tip-bg", "tooltip title"),
    ("--cc-tip-where", "--cc-tip-bg", "tooltip location"),
    ("--cc-tip-quote", "--cc-tip-bg", "tooltip quote"),
]


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_dark_palette_sets_every_colour_the_light_one_sets() -> None:
    assert DARK_MEDIA in CSS, "chat.css has a dark palette"
    assert len(LIGHT) >= 20, LIGHT
    dark_own = dict(COLOUR_VARIABLE.findall(CSS[slice(*DARK_SPAN)]))
    assert set(dark_own) == set(LIGHT), set(LIGHT) ^ set(dark_own)
    # a palette of its own, not the light one again
    assert luminance(DARK["--cc-bg"]) < 0.05 < luminance(DARK["--cc-text"]), DARK


def test_every_colour_chat_css_draws_with_is_a_palette_variable() -> None:
    """A colour written out in a rule would stay the same in the dark palette."""
    rules = CSS[: LIGHT_SPAN[0]] + CSS[LIGHT_SPAN[1] : DARK_MEDIA_SPAN[0]]
    rules += CSS[DARK_MEDIA_SPAN[1] :] if DARK_MEDIA_SPAN[1] else ""
    literal = []
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", rules):
        if selectors.strip() != ".cc-logo":  # decorative (aria-hidden): white on a gradient
            literal += [f"{selectors.strip()}: {hit}" for hit in HEX.findall(body)]
            literal += [
                f"{selectors.strip()}: {n}"
                for n in re.findall(r"color:\s*([a-z]+)\s*(?:;|$)", body)
                if n not in {"transparent", "inherit", "initial"}
            ]
    assert not literal, literal


@pytest.mark.parametrize("palette", PALETTES)
@pytest.mark.parametrize(("text", "background", "where"), PAIRS)
def test_text_colours_have_aa_contrast(
    text: str, background: str, where: str, palette: str
) -> None:
    colours = PALETTES[palette]
    ratio = contrast(colours[text], colours[background])
    assert ratio >= 4.5, f"{palette} {where}: {text} on {background} is {ratio:.2f}:1"


# What a focus outline (drawn 2px outside the control), the question box's border or a button's
# shape can sit on.
NON_TEXT_BACKGROUNDS = {
    "--cc-bg": "the page, the widget panel, the question form",
    "--cc-card": "an answer, the question box",
    "--cc-accent-soft": "a source list entry shown from its citation",
    "--cc-error-soft": "a failed answer",
}
DECLARATION = re.compile(r"(outline|border)(?:-color)?:\s*([^;}]*)")


def declared_colours(selector_part: str, prop: str, palette: str) -> list[str]:
    """The colours (variables resolved in ``palette``) of every ``prop`` declaration in rules
    whose selector has ``selector_part``."""
    found = []
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", CSS):
        if selector_part not in selectors:
            continue
        for name, value in DECLARATION.findall(body):
            if name != prop:
                continue
            for token in re.findall(r"var\((--cc-[a-z-]+)\)|(#[0-9a-fA-F]{6})\b", value):
                found.append(PALETTES[palette][token[0]] if token[0] else token[1])
    return found


@pytest.mark.parametrize("palette", PALETTES)
def test_every_outline_is_a_checked_colour(palette: str) -> None:
    outlines = declared_colours("", "outline", palette)
    assert outlines, "chat.css draws focus outlines"
    assert set(outlines) == {PALETTES[palette]["--cc-focus"]}, outlines


@pytest.mark.parametrize("palette", PALETTES)
@pytest.mark.parametrize("background", NON_TEXT_BACKGROUNDS)
@pytest.mark.parametrize(
    ("colour_of", "where"),
    [
        pytest.param(lambda p: declared_colours("", "outline", p), "focus outlines", id="outline"),
        pytest.param(
            lambda p: declared_colours(".cc-input", "border", p),
            "the question box's border",
            id="input",
        ),
        pytest.param(
            lambda p: [PALETTES[p]["--cc-accent"]],
            "Ask, the widget button, a hovered button's border",
            id="accent",
        ),
        pytest.param(
            lambda p: [
                colour
                for part in (".cc-secondary", ".cc-back", ".cc-vote", ".cc-panel")
                for colour in declared_colours(part, "border", p)
            ],
            "the borders of buttons and of the widget's panel (--cc-line)",
            id="line",
        ),
    ],
)
def test_focus_outlines_and_controls_have_3_to_1_contrast(
    colour_of: Callable[[str], list[str]], where: str, background: str, palette: str
) -> None:
    colours = colour_of(palette)
    assert colours, where
    for drawn in colours:
        ratio = contrast(drawn, PALETTES[palette][background])
        assert ratio >= 3, f"{palette} {where}: {drawn} on {background} is {ratio:.2f}:1"
