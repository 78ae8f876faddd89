"""A code span longer than a message is cut inside, closed and reopened with its backtick run.

Found by QA: ``See `x x … (2,200 characters) [https://bank.example/login](https://
evil.example/phish) [[1]](https://evil.example/fake) **bold**` done.`` went to Discord as three
messages: "See" alone, then one opening a backtick it never closed, then the rest of the "code"
as live markdown, a masked link labelled "https://bank.example/login" opening evil.example.
Slack with a span over 3,000 characters was damaged the same way. Now the cut falls inside the
span, which closes with its own backtick run and reopens with it in the next piece (as a fenced
code block does), and the text before the span fills the first piece with it.
"""

from __future__ import annotations

import re

from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import RenderContext
from renderers.limits import DISCORD_MAX_CONTENT, SLACK_MAX_SECTION_CHARS, split_long
from tests.renderers.payload_checks import check_discord, check_slack

CONTEXT = RenderContext(public_base_url="https://bot.example", turn_id="t1")
PHISH = "[https://bank.example/login](https://evil.example/phish)"
FAKE = "[[1]](https://evil.example/fake)"
# a code span with one backtick (or two) shown as a span, and what is left outside spans
SPAN = re.compile(r"(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)")


def cited(text: str) -> Answer:
    source = Source(id="s1", title="Guide 1", url="https://docs.example/1")
    return Answer(text, (Citation(n=1, source=source, source_number=1),))


def outside_code(piece: str) -> str:
    return SPAN.sub("", piece)


def long_code(words: int) -> str:
    return "x " * words + f"{PHISH} {FAKE} **bold**"


def test_a_discord_code_span_longer_than_a_message_never_goes_live() -> None:
    answer = cited(f"See `{long_code(1100)}` done.[^1]")
    payload = render("discord", answer, CONTEXT)
    check_discord(payload)
    contents = [m["content"] for m in payload["messages"]]
    assert len(contents) == 2, [len(c) for c in contents]
    # the text before the span is not left in a message of its own
    assert contents[0].startswith("See `x x") and contents[0].endswith("x`")
    for content in contents:
        assert content.count("`") % 2 == 0, content[-200:]
        outside = outside_code(content)
        assert "](https://evil.example" not in outside, content[-200:]
        assert "**bold**" not in outside, content[-200:]
    assert "done.\\[1\\]" in contents[1]


def test_a_slack_code_span_longer_than_a_section_never_goes_live() -> None:
    answer = cited(f"See `{long_code(1700)}` done.[^1]")
    payload = render("slack", answer, CONTEXT)
    check_slack(payload)
    sections = [
        b["text"]["text"]
        for m in payload["messages"]
        for b in m["blocks"]
        if b["type"] == "section"
    ]
    assert len(sections) == 2 and sections[0].startswith("See `x x")
    for section in sections:
        assert len(section) <= SLACK_MAX_SECTION_CHARS
        assert section.count("`") % 2 == 0, section[-200:]
        assert "|" not in outside_code(section).replace("<https://docs.example/1|[1]>", "")


def test_each_piece_of_a_long_span_closes_and_reopens_it() -> None:
    code = ("word " * 1000).strip()
    pieces = split_long(f"Intro `{code}` tail.", DISCORD_MAX_CONTENT)
    assert len(pieces) == 3
    assert pieces[0].startswith("Intro `word") and pieces[-1].endswith("word` tail.")
    for piece in pieces:
        assert len(piece) <= DISCORD_MAX_CONTENT and piece.count("`") == 2, piece[-40:]
        assert not piece.startswith("` ") and not piece.endswith(" `")
    assert sum(p.count("word") for p in pieces) == 1000


def test_a_span_of_two_backticks_reopens_with_two() -> None:
    code = "a`b " * 300
    pieces = split_long(f"Run ``{code}`` now.", 500)
    assert len(pieces) > 2
    for piece in pieces:
        assert len(piece) <= 500
        assert piece.startswith(("Run ``", "``")) and piece.rstrip(" now.").endswith("``")
        # the code's own single backticks stay inside the span: nothing is left outside it
        assert outside_code(piece).strip() in ("Run", "Run  now.", "", "now.")


def test_a_quoted_long_span_stays_quoted_and_code() -> None:
    pieces = split_long("> Quote `" + "q " * 300 + "` end", 200)
    assert len(pieces) > 2
    for piece in pieces:
        assert piece.startswith("> ") and piece.count("`") == 2, piece
        assert piece.startswith(("> Quote `", "> `"))


def test_a_span_that_fits_a_piece_still_moves_whole_to_the_next() -> None:
    code = ("y " * 60).strip()
    pieces = split_long("z " * 30 + f"`{code}` end", 150)
    assert any(f"`{code}`" in piece for piece in pieces), pieces
    assert all(piece.count("`") in (0, 2) for piece in pieces)
