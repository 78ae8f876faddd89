"""The chat's colours keep WCAG AA contrast (4.5:1 for text, 3:1 for focus outlines and the
question box's border, WCAG 1.4.11), as chat.css promises.

The pairs are the ones the page actually draws text with: each names the CSS (a variable or a
literal colour from chat.css) for the text and for what it sits on. Every outline in chat.css
and the question box's border are checked against every background they can sit on.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

CSS = (Path(__file__).resolve().parents[3] / "bot/connectors/static/chat.css").read_text("utf-8")
VARIABLES = dict(re.findall(r"(--cc-[a-z-]+):\s*(#[0-9a-fA-F]{6})", CSS))

# (text, background, where)
PAIRS = [
    ("--cc-text", "--cc-bg", "page text"),
    ("--cc-text", "--cc-card", "answer text"),
    ("--cc-muted", "--cc-bg", "status line, hints"),
    ("--cc-muted", "--cc-card", "source details"),
    ("--cc-accent", "--cc-card", "links and source titles"),
    ("--cc-accent-dark", "--cc-accent-soft", "citation numbers, a pressed vote"),
    ("#ffffff", "--cc-accent", "the question bubble, Ask, the launcher, a focused citation"),
    ("#ffffff", "#64728f", "Ask while answering"),
    ("--cc-error", "--cc-card", "errors"),
    ("--cc-error", "--cc-error-soft", "a failed answer"),
    ("#92400e", "--cc-card", "weak citations"),
    ("#e2e8f0", "#0f172a", "code blocks"),
    ("#f9fafb", "#111827", "tooltip title"),
    ("#cbd5e1", "#111827", "tooltip location"),
    ("#e5e7eb", "#111827", "tooltip quote"),
    ("--cc-text", "#eef1f6", "inline code"),
]


def colour(name: str) -> str:
    value = str(VARIABLES.get(name, name))
    assert value in CSS or name in VARIABLES, f"{name} is not a colour chat.css uses"
    return value


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize(("text", "background", "where"), PAIRS)
def test_text_colours_have_aa_contrast(text: str, background: str, where: str) -> None:
    ratio = contrast(colour(text), colour(background))
    assert ratio >= 4.5, f"{where}: {text} on {background} is {ratio:.2f}:1"


# What a focus outline (drawn 2px outside the control) or the question box's border can sit on.
NON_TEXT_BACKGROUNDS = {
    "--cc-bg": "the page, the widget panel, the question form",
    "--cc-card": "an answer, the question box",
    "--cc-accent-soft": "a source list entry shown from its citation",
    "--cc-error-soft": "a failed answer",
}
DECLARATION = re.compile(r"(outline|border)(?:-color)?:\s*([^;}]*)")


def declared_colours(selector_part: str, prop: str) -> list[str]:
    """The colours (variables resolved) of every ``prop`` declaration in rules whose selector
    has ``selector_part``."""
    found = []
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", CSS):
        if selector_part not in selectors:
            continue
        for name, value in DECLARATION.findall(body):
            if name != prop:
                continue
            for token in re.findall(r"var\((--cc-[a-z-]+)\)|(#[0-9a-fA-F]{6})\b", value):
                found.append(VARIABLES[token[0]] if token[0] else token[1])
    return found


def test_every_outline_is_a_checked_colour() -> None:
    outlines = declared_colours("", "outline")
    assert outlines, "chat.css draws focus outlines"
    assert set(outlines) == {VARIABLES["--cc-focus"]}, outlines


@pytest.mark.parametrize("background", NON_TEXT_BACKGROUNDS)
@pytest.mark.parametrize(
    ("colour_of", "where"),
    [
        pytest.param(lambda: declared_colours("", "outline"), "focus outlines", id="outline"),
        pytest.param(
            lambda: declared_colours(".cc-input", "border"), "the question box's border", id="input"
        ),
    ],
)
def test_focus_outlines_and_the_question_box_border_have_3_to_1_contrast(
    colour_of: Callable[[], list[str]], where: str, background: str
) -> None:
    colours = colour_of()
    assert colours, where
    for drawn in colours:
        ratio = contrast(drawn, colour(background))
        assert ratio >= 3, f"{where}: {drawn} on {background} is {ratio:.2f}:1"
