"""Source entries that would read the same are told apart by the start of what each cites.

Two passages of one file and one section are two sources: every channel listed them as the same
line ("[1] citecast (attached: README.md) · Slack" twice). Now each carries the start of its
quote (or passage), cut at a word; entries that already read differently are unchanged.
"""

from __future__ import annotations

import html
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.models import Answer, Citation, Source
from renderers import CHANNELS, render
from renderers.base import RenderContext
from renderers.distinct import snippet
from tests.renderers.payload_checks import CHECKS, slack_context_texts

README = {"title": "citecast", "filename": "README.md", "path": "docs/README.md"}
TOKEN = "Set the bot token in `SLACK_BOT_TOKEN` before you start the connector, or it refuses."
INVITE = "Invite the bot to each channel where it should answer questions."


def passage(n: int, quote: str | None = None, **fields: Any) -> Citation:
    source = Source(id=f"readme#{n}", **{**README, "section": "Slack", **fields})
    return Citation(n=n, source=source, source_number=n, quote=quote)


def two_passages(**fields: Any) -> Answer:
    citations = (passage(1, TOKEN, **fields), passage(2, INVITE, **fields))
    return Answer(text="Set the token [^1]. Invite the bot [^2].", citations=citations)


# --- each channel's source list: citation number -> the entry as it reads, without its number


def _labels(text: str) -> str:
    """Links as their visible label: ``<url|label>`` (Slack), ``[label](url)`` (markdown)."""
    text = re.sub(r"<[^<>|]*\|([^<>]*)>", r"\1", text)
    return re.sub(r"\[((?:[^\[\]\\]|\\.)*)\]\(<?[^()<>\s]*>?\)", r"\1", text)


def _numbered(lines: list[str], marker: str) -> dict[int, str]:
    entries: dict[int, str] = {}
    for line in lines:
        m = re.match(marker, line)
        if m:
            entries.setdefault(int(m.group(1)), _labels(line[m.end() :]))
    return entries


def source_entries(channel: str, payload: dict[str, Any]) -> list[dict[int, str]]:
    """Each source list of the payload (the email has two) as ``{n: entry}``."""
    if channel == "web":
        items = re.findall(r'<li id="cite-[^"]*" value="(\d+)"[^>]*>(.*?)</li>', payload["html"])
        return [{int(n): html.unescape(re.sub(r"<[^>]+>", "", item)) for n, item in items}]
    if channel == "email":
        items = re.findall(r'<li id="ref-(\d+)"[^>]*>(.*?)</li>', payload["html"], re.S)
        in_html = {int(n): html.unescape(re.sub(r"<[^>]+>", "", item)) for n, item in items}
        text = payload["text"].split("\nSources\n", 1)[-1]
        in_text = re.split(r"\n(?=\[\d+\??\] )", text)
        return [in_html, _numbered(in_text, r"\[(\d+)\??\] ")]
    if channel == "slack":
        elements = slack_context_texts(payload)
        return [_numbered([_labels(e) for e in elements], r"\[(\d+)\??\] ")]
    if channel == "discord":
        lines = [line for m in payload["messages"] for line in m["content"].split("\n")]
        return [_numbered(lines, r"(?:- )?\\\[(\d+)\??\\\] ")]
    posts = [payload["raw"], *payload.get("continued", [])]
    lines = [line for post in posts for line in post.split("\n")]
    return [_numbered(lines, r"\[\^(\d+)\]: ") | _numbered(lines, r"- \\\[(\d+)\??\\\] ")]


def assert_told_apart(channel: str, payload: dict[str, Any]) -> None:
    for entries in source_entries(channel, payload):
        texts = list(entries.values())
        assert len(set(texts)) == len(texts), (channel, entries)


# --- the entries of one file's section


def test_every_channel_tells_two_passages_of_one_section_apart() -> None:
    answer = two_passages()
    for channel in CHANNELS:
        payload = render(channel, answer)
        lists = source_entries(channel, payload)
        assert all(len(entries) == 2 for entries in lists), (channel, lists)
        assert_told_apart(channel, payload)
    slack = source_entries("slack", render("slack", answer))[0]
    assert slack[1] == (
        "citecast (attached: README.md) · Slack, "
        "\u201cSet the bot token in SLACK_BOT_TOKEN before you start the\u2026\u201d"
    )
    assert slack[2] == (
        "citecast (attached: README.md) · Slack, "
        "\u201cInvite the bot to each channel where it should answer\u2026\u201d"
    )


def test_links_to_one_page_are_told_apart_too() -> None:
    # Slack, Discord and Discourse show a link's title, not its address
    answer = two_passages(url="https://docs.example/readme")
    discord = render("discord", answer)["messages"][0]["content"]
    assert "\u2014 Slack, \u201cSet the bot token in SLACK\\_BOT\\_TOKEN before" in discord
    for channel in CHANNELS:
        assert_told_apart(channel, render(channel, answer))


def test_entries_that_read_differently_are_unchanged() -> None:
    pages = (passage(1, TOKEN, page=3), passage(2, INVITE, page=4))
    answer = Answer(text="A [^1]. B [^2].", citations=pages)
    text = render("email", answer)["text"]
    assert "[1] citecast (attached: README.md), p. 3, Slack\n" in text
    assert "\u201c" not in text
    # the web list shows each quote: two different quotes read differently already
    web = render("web", two_passages())["html"].split('<section class="sources"', 1)[1]
    assert web.count("\u201cSet the bot token") == 1


def test_the_web_tells_apart_the_same_quote_by_its_passage() -> None:
    same = "Slack needs two tokens."
    citations = (
        passage(1, same, text="Slack needs two tokens. The bot token starts with xoxb."),
        passage(2, same, text="Slack needs two tokens: for Socket Mode, an app token."),
    )
    web = render("web", Answer(text="A [^1]. B [^2].", citations=citations))["html"]
    assert "Slack, \u201cSlack needs two tokens. The bot token starts with xoxb.\u201d" in web
    assert "Slack, \u201cSlack needs two tokens: for Socket Mode, an app token.\u201d" in web
    assert_told_apart("web", {"html": web})


def test_a_longer_start_when_the_first_words_are_the_same() -> None:
    common = "The connector reads its settings from the environment when it starts and then "
    citations = (passage(1, common + "checks the bot token."), passage(2, common + "joins."))
    payload = render("slack", Answer(text="A [^1]. B [^2].", citations=citations))
    entries = source_entries("slack", payload)[0]
    assert "checks the bot" in entries[1] and "joins." in entries[2]


def test_a_restricted_source_shows_no_words() -> None:
    hidden = (
        passage(1, "Salary bands: secret.", audience=("hr",)),
        passage(2, "Salary bands: more secret.", audience=("hr",)),
    )
    for channel in CHANNELS:
        blob = str(render(channel, Answer(text="A [^1]. B [^2].", citations=hidden)))
        assert "secret" not in blob, channel


def test_the_words_are_escaped_as_each_channel_needs() -> None:
    hostile = "<!channel> @everyone *look* [x](javascript:alert(1)) <b>bold</b> and more"
    citations = (passage(1, hostile), passage(2, INVITE))
    answer = Answer(text="A [^1]. B [^2].", citations=citations)
    for channel in CHANNELS:
        payload = render(channel, answer)
        CHECKS[channel](payload)
        assert_told_apart(channel, payload)
    assert "<!channel>" not in str(render("slack", answer))
    assert "<b>" not in render("email", answer)["html"]


def test_snippet_is_cut_after_a_word() -> None:
    assert (
        snippet(TOKEN)
        == "\u201cSet the bot token in SLACK_BOT_TOKEN before you start the\u2026\u201d"
    )
    assert snippet("Short **one**.") == "\u201cShort one.\u201d"
    assert snippet("  ") == ""


# --- property: no two entries of one answer's source list read the same

PHRASES = st.lists(
    st.sampled_from(["the", "bot", "token", "*x*", "`c`", "<!here>", "@everyone", "[a](b)", "é"]),
    min_size=0,
    max_size=14,
).map(" ".join)
FILES: list[dict[str, str | None]] = [
    {**README, "url": None},
    {**README, "url": "https://docs.example/readme"},
    {"title": "Admin guide", "filename": "admin.pdf", "path": "kb/admin.pdf", "url": None},
    {"title": "Admin guide", "filename": None, "path": None, "url": None},
]


@st.composite
def passage_answers(draw: st.DrawFn) -> Answer:
    """Passages of a few files and sections, each citing its own words (a quote or, without
    one, its passage): the entries of one section would read the same without them."""
    citations = []
    k = draw(st.integers(2, 8))
    for n in range(1, k + 1):
        file = draw(st.sampled_from(FILES))
        words = draw(st.one_of(st.none(), PHRASES))
        source = Source(
            id=f"p{n}",
            title=file["title"],
            filename=file["filename"],
            path=file["path"],
            url=file["url"],
            section=draw(st.sampled_from([None, "Slack", "Install > Linux"])),
            page=draw(st.sampled_from([None, None, 3, 4])),
            text=None if words is None else f"Passage {n}: {words}",
        )
        said = draw(st.one_of(st.none(), PHRASES))
        quote = None if said is None else f"Step {n}: {said}"
        if quote is None and source.text is None:
            quote = f"Step {n}"
        citations.append(Citation(n=n, source=source, source_number=n, quote=quote))
    text = " ".join(f"Claim {n} [^{n}]." for n in range(1, k + 1))
    return Answer(text=text, citations=tuple(citations))


contexts = st.builds(
    RenderContext,
    signer=st.sampled_from(
        [None, lambda s: f"https://bot.example/files/{s.id}" if s.path else None]
    ),
    attach_files=st.booleans(),
    show=st.sampled_from(["cited", "all"]),
)


@settings(max_examples=60)
@given(answer=passage_answers(), context=contexts)
def test_no_two_source_entries_of_an_answer_read_the_same(
    answer: Answer, context: RenderContext
) -> None:
    for channel in CHANNELS:
        payload = render(channel, answer, context)
        lists = source_entries(channel, payload)
        assert all(len(entries) == len(answer.citations) for entries in lists), (channel, lists)
        assert_told_apart(channel, payload)
