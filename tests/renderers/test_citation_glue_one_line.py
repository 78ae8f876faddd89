"""A citation stays glued to its word where the renderers put text on one line.

Headings and table cells are written with ``one_line`` (a heading or a cell must stay on one
line), which turned the no-break space holding a marker to its word (renderers.glue) back into
an ordinary space: in Discord, Discourse, Slack's header and the email's text part the marker
could wrap onto a line of its own there.
"""

from __future__ import annotations

import itertools
import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.models import Answer, Citation, Source
from renderers import render
from renderers.escaping import one_line
from renderers.slack import header_text

NBSP = "\u00a0"
GUIDE = Citation(1, Source(id="g", title="Setup guide", url="https://docs.example/setup"), 1)
# a table with a link in it: Discord and Slack write it as "Header: value" lines; without one,
# Discord and Slack write a short table as a monospace block
TABLE_WITH_LINK = "| Step | Note |\n|---|---|\n| Run it [^1] | see [docs](https://d.example) |\n"
SHORT_TABLE = "| Step | Note |\n|---|---|\n| Run it [^1] | ok |\n"
WIDE_TABLE = (
    "| Step | Note |\n|---|---|\n"
    "| Run it [^1] | a note long enough to make the table too wide for a monospace block |\n"
)


def sent(channel: str, text: str) -> str:
    """The answer's text as the channel sends it: every message and text block."""
    payload = render(channel, Answer(text=text, citations=(GUIDE,)))
    if channel == "slack":
        return "\n".join(
            str(block["text"]["text"])
            for message in payload["messages"]
            for block in message["blocks"]
            if "text" in block
        )
    if channel == "discord":
        return "\n".join(str(m["content"]) for m in payload["messages"])
    if channel == "email":
        return str(payload["text"])
    return str(payload["raw"])


MARKERS = {
    "slack": "<https://docs.example/setup|[1]>",
    "discord": "\\[1\\]",
    "discourse": "[^1]",
    "email": "[1]",
}


@pytest.mark.parametrize("level", [2, 3])
@pytest.mark.parametrize("channel", ["discord", "discourse", "email", "slack"])
def test_a_heading_keeps_the_marker_on_its_word(channel: str, level: int) -> None:
    text = sent(channel, "#" * level + " Install it [^1]\n\nBody.")
    assert f"Install it{NBSP}{MARKERS[channel]}" in text
    assert f"Install it {MARKERS[channel]}" not in text


def test_a_slack_header_block_keeps_the_marker_on_its_word() -> None:
    payload = render("slack", Answer(text="# Install it [^1]\n\nBody.", citations=(GUIDE,)))
    header = payload["messages"][0]["blocks"][0]
    assert header == {
        "type": "header",
        "text": {"type": "plain_text", "text": f"Install it{NBSP}[1]"},
    }
    # the notification text too
    assert payload["messages"][0]["text"].startswith(f"Install it{NBSP}[1]")


@pytest.mark.parametrize("channel", ["discord", "discourse", "email", "slack"])
@pytest.mark.parametrize("table", [TABLE_WITH_LINK, SHORT_TABLE, WIDE_TABLE])
def test_a_table_cell_keeps_the_marker_on_its_word(channel: str, table: str) -> None:
    text = sent(channel, table)
    # a monospace block shows plain markers ("[1]"); any other form the channel's own
    assert f"Run it{NBSP}{MARKERS[channel]}" in text or f"Run it{NBSP}[1]" in text
    assert "Run it [" not in text and "Run it \\[" not in text and "Run it <" not in text


def test_the_email_subject_drops_a_glued_marker_with_its_space() -> None:
    for text in ("# Install it [^1]\n\nBody.", "It works [^1]. More."):
        subject = render("email", Answer(text=text, citations=(GUIDE,)))["subject"]
        assert subject in ("Install it", "It works. More.")


def test_a_slack_header_cut_short_keeps_its_marker_held_to_the_ellipsis() -> None:
    shown = header_text("word " * 40 + f"end{NBSP}[1]", ["[1]"])
    assert shown.endswith(f"\u2026{NBSP}[1]")
    assert len(shown) <= 150


def test_one_line_collapses_runs_and_keeps_the_no_break_space() -> None:
    assert one_line("  a \n\t b\u2028c  ") == "a b c"
    assert one_line(f"works{NBSP}[1]") == f"works{NBSP}[1]"
    assert one_line(f"works \n{NBSP} [1]") == f"works{NBSP}[1]"  # a run holding one keeps it
    assert one_line(f"{NBSP}works{NBSP}") == "works"  # nothing to hold at either end
    assert one_line("10\u202fkm and 7\u2007000") == "10\u202fkm and 7\u2007000"


WHITESPACE = [" ", "\n", "\r", "\t", "\v", "\f", "\x1c", "\x85", "\u2028", "\u2029", "\u3000"]
piece = st.one_of(
    st.sampled_from(WHITESPACE),
    st.text(max_size=6),
)


@given(st.lists(piece, max_size=8), st.lists(piece, max_size=8))
def test_one_line_never_yields_a_line_break_and_never_drops_the_glue(
    before: list[str], after: list[str]
) -> None:
    word = "works"
    text = "".join(before) + f"{word}{NBSP}[1]" + "".join(after)
    line = one_line(text)
    # no line break of any kind: the only white space left is a space or a no-break one
    assert all(c in " \u00a0\u2007\u202f" for c in line if c.isspace())
    assert f"{NBSP}[1]" in line  # the marker is still held to what precedes it
    assert line == line.strip()
    # each run of white space became one character
    assert not any(a.isspace() and b.isspace() for a, b in itertools.pairwise(line))
    # and nothing visible is lost
    assert "".join(line.split()) == "".join(text.split())


@pytest.mark.parametrize("channel", ["web", "slack", "email", "discord", "discourse"])
def test_a_record_column_value_keeps_its_no_break_space(channel: str) -> None:
    # a value on several lines is put on one, but "10 kg" written with a no-break space
    # must not break between the number and its unit
    scale = Citation(
        1,
        Source(id="r", kind="record", label="Scale", columns={"weight": f"10{NBSP}kg\nnet"}),
        1,
        columns=("weight",),
    )
    payload = render(channel, Answer(text="It is heavy [^1].", citations=(scale,)))
    assert f"10{NBSP}kg net" in json.dumps(payload, ensure_ascii=False)


@pytest.mark.parametrize("channel", ["web", "email"])
def test_html_holds_the_marker_in_a_heading_and_a_table_cell(channel: str) -> None:
    # the HTML channels glue with a word joiner inside the superscript (renderers.glue)
    text = "## Install it [^1]\n\n| Step |\n|---|\n| Run it [^1] |\n"
    payload = render(channel, Answer(text=text, citations=(GUIDE,)))
    shown = str(payload["html"])
    for word in ("Install it", "Run it"):
        assert re.search(f"{word}<sup[^>]*>\u2060<a ", shown), word
