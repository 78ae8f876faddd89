"""A bare URL is never cut into two links: kept whole in one message, or shown as a note.

Found by QA (chatqa finding 6): "The page is https://docs.example.com/aaaa…(3,525 characters)
[1]." went to Discord cut at exactly 2,000 characters and to Slack at the 3,000 of a section,
and each platform linked each half, to an address that is not the page. A masked link too long
for a message already showed as its text and "(link too long to show)"; a bare URL now shows
as that note, and one that fits a message is never cut.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.models import Answer, Citation, CitationAdded, Source, TextDelta
from renderers import render
from renderers.limits import DISCORD_MAX_CONTENT, SLACK_MAX_SECTION_CHARS, split_long
from renderers.streaming import StreamRenderer
from tests.cpu_time import best_cpu_seconds
from tests.renderers.payload_checks import check_discord, check_slack

GUIDE = Source(id="g", title="Guide", url="https://docs.example.com/g")
CITED = (Citation(n=1, source=GUIDE, source_number=1),)
NOTE = "(link too long to show)"


def long_url(length: int, start: str = "https://docs.example.com/") -> str:
    return start + "a" * (length - len(start))


def parts(channel: str, payload: dict[str, Any]) -> list[str]:
    if channel == "discord":
        check_discord(payload)
        return [str(m["content"]) for m in payload["messages"]]
    check_slack(payload)
    return [
        str(b["text"]["text"])
        for m in payload["messages"]
        for b in m["blocks"]
        if b["type"] == "section"
    ]


def cut_urls(shown: list[str], url: str) -> list[str]:
    """The ends of the parts holding a piece of ``url`` but not all of it."""
    return [p[-60:] for p in shown if "aaaa" in p and url not in p]


@pytest.mark.parametrize(
    ("channel", "length", "expected"),
    [
        ("discord", 3525, f"The page is {NOTE} \\[1\\]."),
        ("slack", 3525, f"The page is {NOTE} [1]."),
    ],
)
def test_a_bare_url_longer_than_a_message_shows_as_a_note(
    channel: str, length: int, expected: str
) -> None:
    url = long_url(length)
    shown = parts(channel, render(channel, Answer(f"The page is {url} [1].", CITED)))
    assert cut_urls(shown, url) == []
    assert shown[0].startswith(expected), shown[0][:80]


@pytest.mark.parametrize(
    ("channel", "words", "length"),
    [("discord", 60, 1800), ("slack", 100, 2600), ("discord", 0, 1900), ("slack", 20, 1500)],
)
def test_a_bare_url_that_fits_a_message_is_never_cut(channel: str, words: int, length: int) -> None:
    """No space to cut at past the first quarter of the message: the cut went through the
    URL, at the limit; now it goes before it, and the URL starts the next message."""
    url = long_url(length)
    text = "word " * words + f"{url} for more. " + "And after. " * 300
    shown = parts(channel, render(channel, Answer(text + "[1]", CITED)))
    assert len(shown) >= 2
    assert cut_urls(shown, url) == []
    assert sum(url in p for p in shown) == 1


def test_a_quoted_bare_url_shows_as_a_note_in_its_quote() -> None:
    shown = parts("discord", render("discord", Answer(f"> See {long_url(4000)}, then go on.", ())))
    assert shown[0].startswith(f"> See {NOTE}, then go on."), shown[0][:80]


def test_a_www_url_is_a_bare_url_too() -> None:
    url = long_url(3000, "www.example.com/")
    shown = parts("slack", render("slack", Answer(f"Open {url}. Then restart.", ())))
    assert shown == [f"Open {NOTE}. Then restart."]


def test_a_url_in_code_stays_code_and_is_cut_as_code() -> None:
    url = long_url(4500)
    shown = parts("discord", render("discord", Answer(f"```\ncurl {url}\n```", ())))
    assert NOTE not in "".join(shown)
    assert sum(p.count("a") for p in shown) >= url.count("a")
    assert all(p.startswith("```") and p.endswith("```") for p in shown)


def test_a_url_in_a_code_span_is_not_a_bare_url() -> None:
    url = long_url(2500)
    pieces = split_long(f"Run `curl {url}` now.", DISCORD_MAX_CONTENT)
    assert NOTE not in "".join(pieces)


def test_streamed_previews_never_cut_a_bare_url() -> None:
    url = long_url(2600)
    text = "Intro words. " * 50 + f"The page is {url} [1]. " + "More words. " * 100
    answer = Answer(text, CITED)
    stream = StreamRenderer("discord")
    stream.feed([CitationAdded(CITED[0])])
    at = text.index(url)
    for start in range(0, len(text), 700):
        stream.feed([TextDelta(text[start : start + 700])])
        arrived = url[: max(0, start + 700 - at)]  # the URL so far: whole in a preview too
        assert cut_urls(stream.discord_contents(), arrived) == [], start
    assert stream.finish(answer) == render("discord", answer)


@pytest.mark.parametrize("channel", ["discord", "slack"])
def test_a_megabyte_url_is_shown_in_linear_time(channel: str) -> None:
    def answer(size: int) -> Answer:
        return Answer(f"The page is {long_url(size)} [1].", CITED)

    small, large = answer(125_000), answer(1_000_000)
    ratio = best_cpu_seconds(lambda: render(channel, large)) / best_cpu_seconds(
        lambda: render(channel, small)
    )
    # eight times the text: about eight times the time; cutting the URL, a scan to its end at
    # each cut, made it over thirty
    assert ratio < 24, ratio


def test_the_limits_of_a_bare_url_are_those_of_a_masked_link() -> None:
    from renderers.limits import DISCORD_MAX_LINK, SLACK_MAX_LINK
    from renderers.long_urls import longest_bare_url

    assert longest_bare_url(DISCORD_MAX_CONTENT) == DISCORD_MAX_LINK
    assert longest_bare_url(SLACK_MAX_SECTION_CHARS) == SLACK_MAX_LINK
