"""A ``>`` indented by four columns or more is pasted code or output, not a quote
(``email_text.looks_quoted``): "    > npm ERR! …" stays in the question."""

from __future__ import annotations

import pytest

from bot.connectors.email_parse import parse_mail
from bot.connectors.email_text import looks_quoted, strip_quoted_text
from tests.fakes.email_world import inbound_mail

NPM = (
    "The install fails:\n\n"
    "    > npm ERR! code E404\n"
    "    > npm ERR! 404 Not Found - GET https://registry.example.org/citecast\n\n"
    "What am I missing?\n\n"
    "On Mon, 1 Dec 2026 at 10:00, Support <help@docs.example.org> wrote:\n"
    "> Run npm install citecast.\n"
)


@pytest.mark.parametrize(
    ("line", "quoted"),
    [
        ("> earlier", True),
        ("   > three spaces", True),
        ("    > npm ERR! four spaces", False),
        ("\t> a tab", False),
        ("  \t> two spaces and a tab", False),
        (">", True),
        ("x > y", False),
    ],
)
def test_a_quote_mark_counts_only_near_the_start_of_the_line(line: str, quoted: bool) -> None:
    assert looks_quoted(line) is quoted


def test_indented_output_lines_stay_and_the_quoted_answer_goes() -> None:
    text = strip_quoted_text(NPM)
    assert "    > npm ERR! code E404" in text
    assert "    > npm ERR! 404 Not Found" in text
    assert text.endswith("What am I missing?")
    assert "Run npm install" not in text


def test_the_question_keeps_the_indented_output() -> None:
    mail = parse_mail(inbound_mail(NPM, subject="npm install fails"))
    assert "npm ERR! code E404" in mail.question
    assert "Run npm install" not in mail.question
