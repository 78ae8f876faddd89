"""Streaming previews: a table stays a table while its rows stream in, and Discord's preview
joins blocks as the final message does.

Found by QA (streamqa): whenever a stream stopped mid-row, the open tail parsed ``| 3 |`` under a
two-column table as an invalid row and the whole table as a paragraph of pipes (web: 6 of 19
partial-block previews; Discord: 9 of 170 edits), flipping back on the next row. And Discord's
live preview joined the open tail's blocks with one newline (``ok \\[1\\].\\nClick x``), so
paragraphs ran together until the block completed.
"""

from __future__ import annotations

import re

import pytest

from bot.models import Answer, TextDelta
from renderers import render
from renderers.open_table_row import without_open_table_row
from renderers.streaming import StreamRenderer

TABLE = "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n| 5 | 6 |\n"
# the same table at the top level, in a block quote and in a list item
TABLES = {
    "top level": ("Intro.\n\n", TABLE),
    "quoted": ("Intro.\n\n", "".join(f"> {line}\n" for line in TABLE.splitlines())),
    "in a list item": ("- item\n\n", "".join(f"  {line}\n" for line in TABLE.splitlines())),
}


def prefixes_in_table(head: str, table: str) -> list[str]:
    """Every prefix of ``head + table`` that holds the table's delimiter row, and so a table."""
    text = head + table
    start = len(head) + len("".join(table.splitlines(keepends=True)[:2]))
    return [text[:end] for end in range(start, len(text) + 1)]


def complete_rows(prefix: str) -> int:
    """Body rows of the table whose line is complete in ``prefix``."""
    lines = prefix[: prefix.rfind("\n") + 1].splitlines()
    return sum(1 for line in lines if re.search(r"\| \d \| \d \|", line))


@pytest.mark.parametrize("name", sorted(TABLES))
def test_a_streaming_table_never_turns_back_into_pipes_on_the_web(name: str) -> None:
    head, table = TABLES[name]
    stream = StreamRenderer("web")
    fed = 0
    for prefix in prefixes_in_table(head, table):
        stream.feed([TextDelta(prefix[fed:])])
        fed = len(prefix)
        shown = stream.text()
        assert "<table" in shown and "|" not in shown, (prefix[-12:], shown)
        # the rows above the one being written, no more and no fewer
        assert shown.count("<tr>") == 1 + complete_rows(prefix), (prefix[-12:], shown)


@pytest.mark.parametrize("name", sorted(TABLES))
def test_a_streaming_table_never_turns_back_into_pipes_on_discord(name: str) -> None:
    head, table = TABLES[name]
    stream = StreamRenderer("discord")
    fed = 0
    for prefix in prefixes_in_table(head, table):
        stream.feed([TextDelta(prefix[fed:])])
        fed = len(prefix)
        shown = "\n".join(stream.discord_contents())
        assert "a | b\n" in shown and "\\|" not in shown, (prefix[-12:], shown)
        assert len(re.findall(r"\d \| \d", shown)) == complete_rows(prefix), (prefix[-12:], shown)


def test_the_streamed_table_still_ends_as_the_one_shot_render() -> None:
    answer = Answer("Intro.\n\n" + TABLE + "| 7 | 8", ())
    for channel in ("web", "discord", "slack"):
        stream = StreamRenderer(channel)
        for index in range(len(answer.text)):
            stream.feed([TextDelta(answer.text[index])])
        assert stream.finish(answer) == render(channel, answer), channel


def test_only_an_unfinished_line_under_a_table_is_held_back() -> None:
    assert without_open_table_row(TABLE + "| 7 |") == TABLE
    assert without_open_table_row(TABLE + "| 7") == TABLE
    assert without_open_table_row(TABLE + "7 | 8 |") == TABLE
    assert without_open_table_row(TABLE) == TABLE  # no unfinished line
    # a blank line ended the table: the next line is no row of it
    assert without_open_table_row(TABLE + "\nNext par") == TABLE + "\nNext par"
    # not a table (yet): pipes in a paragraph, a header waiting for its delimiter row
    assert without_open_table_row("a | b\nc | d\ne |") == "a | b\nc | d\ne |"
    assert without_open_table_row("| a | b |\n|---") == "| a | b |\n|---"
    assert without_open_table_row("```\n| a | b |\n|---|---|\n| 1") == (
        "```\n| a | b |\n|---|---|\n| 1"
    )


PROSE = (
    "Hi there, this is ok [1].\n\n## A heading\n\n- one\n- two\n\n  more of two\n\n"
    "A paragraph with `code` and **bold**.\n> quoted\n\n1. first\n2. second\n\nEnd.\n"
)


def test_discord_preview_keeps_the_blank_line_between_paragraphs() -> None:
    stream = StreamRenderer("discord")
    stream.feed([TextDelta("First paragraph.\n\nSecond par")])
    assert stream.discord_contents() == ["First paragraph.\n\nSecond par"]
    assert stream.text() == "First paragraph.\n\nSecond par"


def test_discord_preview_is_the_final_render_of_the_text_so_far() -> None:
    """At every character the edit shows what the finished message would: nothing jumps."""
    stream = StreamRenderer("discord")
    for end in range(1, len(PROSE) + 1):
        stream.feed([TextDelta(PROSE[end - 1])])
        if not PROSE[:end].strip():
            continue
        final = render("discord", Answer(PROSE[:end], ()))
        assert stream.discord_contents() == [m["content"] for m in final["messages"]], end


def test_discord_completed_blocks_are_joined_with_a_blank_line_too() -> None:
    stream = StreamRenderer("discord")
    update = stream.feed([TextDelta("One.\n\n- two\n\nThree.\n\nFour\n")])
    assert update.appended == "One.\n\n- two\n\nThree."
