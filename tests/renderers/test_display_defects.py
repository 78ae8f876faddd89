"""Small display defects: italics in a Discord link label, a heading's last "#", a source titled
by its own URL, a code block's indent inside a Slack list, a "|" inside a text table cell, and
tables inside list items and block quotes."""

from __future__ import annotations

import re

from bot.markdown import parse, plain_text
from bot.models import Answer, Citation, Source
from renderers import render
from renderers.escaping import discord_label

GUIDE = Source("g", title="Guide", url="https://docs.example/guide")


def _answer(text: str, source: Source = GUIDE) -> Answer:
    return Answer(text=text, citations=(Citation(1, source, 1),))


def _discord(answer: Answer) -> str:
    return "\n".join(m["content"] for m in render("discord", answer)["messages"])


def _slack(answer: Answer) -> str:
    return "\n".join(
        b["text"]["text"]
        for m in render("slack", answer)["messages"]
        for b in m["blocks"]
        if b["type"] == "section"
    )


def test_a_discord_label_shows_single_marks_without_italics() -> None:
    label = discord_label("The *new* _fast_ guide")
    assert not re.search(r"(?<!\*)\*[^\s*][^*]*\*", label)  # no "*…*" pair left
    assert not re.search(r"(?<!\w)_[^\s_][^_]*_(?!\w)", label)  # no "_…_" pair left
    assert "new" in label and "fast" in label
    # what cannot pair stays as written
    assert discord_label("snake_case a*b") == "snake_case a*b"
    source = Source("s", title="The *new* guide", url="https://docs.example/new")
    assert "[The \u2217new* guide](<https://docs.example/new>)" in _discord(
        _answer("Hi.[^1]", source)
    )


def test_a_heading_ending_in_an_escaped_hash_keeps_it() -> None:
    answer = _answer("## Setup \\#\n\nText.[^1]")
    discourse = render("discourse", answer)["raw"]
    assert discourse.startswith("## Setup \\#\n")
    assert plain_text(parse(discourse)[0]["children"]) == "Setup #"
    assert _discord(answer).startswith("## Setup #\u200b\n")
    # "C#" has no closing sequence: written as it is on Discourse
    assert render("discourse", _answer("## C#\n\nText.[^1]"))["raw"].startswith("## C#\n")


def test_email_text_writes_a_source_titled_by_its_url_once() -> None:
    source = Source("u", title="https://c.example/page", url="https://c.example/page")
    text = render("email", _answer("Text.[^1]", source))["text"]
    assert text.count("https://c.example/page") == 1
    assert "[1] https://c.example/page" in text


def test_slack_code_in_a_list_item_has_no_indent_inside() -> None:
    answer = _answer("- Run:\n\n  ```\n  citecast serve\n  ```\n\n  Done.[^1]\n")
    slack = _slack(answer)
    assert "```\ncitecast serve\n```" in slack
    assert "    citecast serve" not in slack


def test_a_bar_inside_a_text_table_cell_is_not_a_separator() -> None:
    answer = _answer("| Command | Use |\n|---|---|\n| `a \\| b` | pipe[^1] |\n")
    for shown in (_slack(answer), _discord(answer), render("email", answer)["text"]):
        row = next(line for line in shown.split("\n") if "pipe" in line)
        # the command stays as written; the columns are apart by a box-drawing line
        assert "a | b" in row and row.count("|") == 1, row
        assert row.count("\u2502") == 1, row


TABLES = (
    "Plans:\n\n- Europe:\n\n  | Plan | Price |\n  |---|---|\n  | Starter | €29 [^1] |\n\n"
    "> | Plan | Price |\n> |---|---|\n> | Business | $99[^1] |\n"
)


def test_tables_in_a_list_item_and_a_quote_are_tables_on_every_channel() -> None:
    answer = _answer(TABLES)
    kinds = [t["type"] for t in parse(TABLES)[1]["children"][0]["children"]]
    assert "table" in kinds
    assert render("web", answer)["html"].count("<table") == 2
    assert render("email", answer)["html"].count("<table") == 2
    for shown in (_slack(answer), _discord(answer)):
        assert "| Plan" not in shown and "|---|" not in shown
        assert shown.count("```") == 4  # two monospace blocks
        assert "Starter | €29" in shown and "Business | $99[1]" in shown
    text = render("email", answer)["text"]
    assert "  Starter | €29\u00a0[1]" in text and "> Business | $99[1]" in text
    raw = render("discourse", answer)["raw"]
    assert "  | Starter | €29\u00a0[^1] |" in raw and "> | Business | $99[^1] |" in raw
