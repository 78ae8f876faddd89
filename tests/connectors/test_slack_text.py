"""Slack edge conversions: questions, streamed markdown, length fitting, thread history."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bot.connectors.slack_client import retry_after_seconds
from bot.connectors.slack_history import exchanges_from_messages
from bot.connectors.slack_text import StreamMarkdown, fit_text, question_text, to_stream_markdown
from bot.models import Exchange


def test_question_text_removes_the_bot_mention_and_reads_tokens() -> None:
    raw = "<@U0BOT> how do I reset <#C123|ops> &amp; <https://x.example/a|the page> for <@U9|bob>?"
    assert question_text(raw, "U0BOT") == "how do I reset #ops & the page for @bob?"


def test_question_text_drops_the_punctuation_after_a_leading_bot_mention() -> None:
    assert question_text("<@U0BOT>: how do I deploy?", "U0BOT") == "how do I deploy?"
    assert question_text("<@U0BOT|citecast>, <@U0BOT> how?", "U0BOT") == "how?"
    assert question_text("hey <@U0BOT>, how?", "U0BOT") == "hey, how?"
    assert question_text("ask <@U0BOT> about it", "U0BOT") == "ask about it"
    assert question_text("list: <@U0BOT>", "U0BOT") == "list:"


@given(
    st.lists(
        st.sampled_from(
            ["<@U0BOT>", "<@U0BOT|citecast>", "<@U0ADA>", " ", "\t", "\n", ",", ":", "?", "how"]
        ),
        max_size=30,
    )
)
def test_question_text_never_keeps_the_bot_mention_or_edge_blanks(pieces: list[str]) -> None:
    out = question_text("".join(pieces), "U0BOT", {"U0ADA": "Ada"})
    assert "U0BOT" not in out and "citecast" not in out and "U0ADA" not in out
    assert out == out.strip()


def test_question_text_drops_broadcast_mentions() -> None:
    assert question_text("<!here> is &lt;b&gt; bold?", "U0BOT") == "is <b> bold?"


def test_stream_markdown_turns_footnotes_into_numbers_and_defuses_tokens() -> None:
    assert to_stream_markdown("a < b & c[^1][^12].") == "a < b & c[1][12]."
    shown = to_stream_markdown("<!here> <@U1> <https://evil.example|docs> `<div>`")
    assert shown == ("<\u200d!here> <\u200d@U1> <\u200dhttps://evil.example|docs> `<\u200ddiv>`")


@given(
    text=st.text(alphabet="ab [^]12<>&\n", max_size=80),
    cuts=st.lists(st.integers(min_value=0, max_value=80), max_size=8),
)
def test_stream_markdown_is_split_invariant(text: str, cuts: list[int]) -> None:
    """However the answer is cut into deltas, the streamed markdown is the same."""
    stream = StreamMarkdown()
    pieces, last = [], 0
    for cut in sorted(c for c in cuts if c <= len(text)):
        pieces.append(text[last:cut])
        last = cut
    pieces.append(text[last:])
    out = "".join(stream.feed(piece) for piece in pieces) + stream.flush()
    assert out == to_stream_markdown(text)


def test_stream_markdown_holds_back_only_a_possible_citation() -> None:
    # and the spaces before it: they become a no-break space if a citation follows
    stream = StreamMarkdown()
    assert stream.feed("Fact [^") == "Fact"
    assert stream.feed("3] and x] <") == "\u00a0[3] and x]"
    assert stream.feed("!here>") == " <\u200d!here>"
    assert stream.feed("<[") == ""
    # a whole citation at the end waits for the next character: "[2](…" must not be a link
    assert stream.feed("^2]") == ""
    assert stream.flush() == "<\u200d[2]"


def test_fit_text_never_leaves_half_a_link_or_entity() -> None:
    text = "x" * 3990 + " <https://example.com/a|[1] A source> &amp; more"
    fitted = fit_text(text, 4000)
    assert len(fitted) <= 4000
    assert fitted.endswith("\u2026")
    assert fitted.count("<") == fitted.count(">")
    assert not re.search(r"&[a-z]*…$", fitted)
    assert fit_text("short", 4000) == "short"


def test_retry_after_reads_seconds_and_defaults_to_one() -> None:
    assert retry_after_seconds({"Retry-After": ["7"]}) == 7.0
    assert retry_after_seconds({"retry-after": "0"}) == 0.0
    assert retry_after_seconds({}) == 1.0


def test_thread_history_pairs_questions_with_the_bots_answers() -> None:
    messages = [
        {"ts": "1.0", "user": "U1", "text": "<@U0BOT> what is X?"},
        {"ts": "2.0", "user": "U0BOT", "bot_id": "B0BOT", "text": "X is a thing [1]."},
        {"ts": "2.5", "user": "U0BOT", "bot_id": "B0BOT", "text": "(continued)"},
        {"ts": "3.0", "bot_id": "B0OTHER", "text": "another bot chimes in"},
        {"ts": "4.0", "user": "U2", "text": "and Y &amp; Z?"},
        {"ts": "5.0", "user": "U0BOT", "bot_id": "B0BOT", "text": "Y too."},
        {"ts": "6.0", "user": "U1", "text": "current question"},
        {"ts": "7.0", "user": "U0BOT", "bot_id": "B0BOT", "text": "later answer"},
    ]
    history = exchanges_from_messages(
        messages, current_ts="6.0", bot_user_id="U0BOT", bot_id="B0BOT", limit=10
    )
    assert history == (
        Exchange("what is X?", "X is a thing [1].\n\n(continued)"),
        Exchange("and Y & Z?", "Y too."),
    )
    last = exchanges_from_messages(
        messages, current_ts="6.0", bot_user_id="U0BOT", bot_id="B0BOT", limit=1
    )
    assert last == (Exchange("and Y & Z?", "Y too."),)


def test_streamed_markdown_never_carries_a_bidi_override() -> None:
    # "\u202e91$" would show as "$19": the stream drops the controls as the renderers do, and a
    # citation split by one is still held back and shown as one
    stream = StreamMarkdown()
    out = stream.feed("The fee is \u202e91$ [^") + stream.feed("\u202e1] now\u2066.")
    out += stream.flush()
    assert out == "The fee is 91$\u00a0[1] now."
    assert to_stream_markdown("\u202bשלום\u200f [^2]") == "שלום\u200f\u00a0[2]"
