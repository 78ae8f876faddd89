"""Entities in a table cell show as the characters they stand for, in Discord too.

Discord's tables (a monospace block, or "**Header**: value" lines when wide) were written from
the cells' raw text, so "A &amp; B" showed as "&amp;" (Discord decodes no entities), and the
columns were measured on it.
"""

from __future__ import annotations

import pytest

from bot.models import Answer
from renderers import render

NARROW = "| Plan | Note |\n|---|---|\n| A &amp; B | x &lt; y |\n"
WIDE = (
    "| Plan | Note |\n|---|---|\n"
    "| A &amp; B | x &lt; y, in a cell long enough to make the table too wide for monospace |\n"
)


def discord(text: str) -> str:
    return str(render("discord", Answer(text=text))["messages"][0]["content"])


def test_a_monospace_table_decodes_entities_and_aligns_on_the_characters() -> None:
    content = discord(NARROW)
    assert "&amp;" not in content and "&lt;" not in content
    assert content == "```\nPlan  | Note\n------+------\nA & B | x < y\n```"


def test_a_wide_table_decodes_entities() -> None:
    content = discord(WIDE)
    assert "**Plan**: A & B\n" in content
    assert "**Note**: x \\< y, in a cell" in content  # escaped as any text is


@pytest.mark.parametrize("channel", ["slack", "email", "discourse"])
def test_the_other_text_channels_already_decoded_them(channel: str) -> None:
    payload = render(channel, Answer(text=NARROW))
    if channel == "slack":
        shown = payload["messages"][0]["blocks"][0]["text"]["text"]
        assert "A &amp; B | x &lt; y" in shown  # Slack's own escaping: it shows "A & B"
    elif channel == "email":
        assert "A & B | x < y" in payload["text"]
    else:
        assert "| A & B | x \\< y |" in payload["raw"]
