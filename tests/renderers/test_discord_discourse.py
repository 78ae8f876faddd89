"""Discord and Discourse: list items keep their blocks, code spans keep their backticks, every
source arrives whole, and every Discourse footnote reference has its definition."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.deeplinks import deep_link
from bot.markdown import Token, parse
from bot.models import Answer, Citation, RecordAction, Source
from renderers import render
from renderers.base import RenderContext, capabilities_for
from tests.renderers.payload_checks import check_discord, check_discourse, discourse_footnotes

CHAT = ("discord", "discourse")
GUIDE = Source(id="g", title="Install guide", url="https://docs.example/install")
SERVER = Source(id="s", title="Server guide", url="https://docs.example/serve")
LONG_URL = "https://example.com/search?q=" + "abcdefghij" * 250  # 2,529 characters


def contents(payload: dict[str, Any]) -> list[str]:
    """The texts a reader sees: Discord message contents or Discourse posts."""
    if "messages" in payload:
        return [m["content"] for m in payload["messages"]]
    return [payload["raw"], *payload.get("continued", [])]


def body_of(channel: str, payload: dict[str, Any]) -> str:
    """The first message or post without its sources."""
    text = contents(payload)[0]
    return text.split("\n\n**Sources**")[0] if channel == "discord" else text.split("\n\n[^")[0]


def answer(text: str, *sources: Source) -> Answer:
    return Answer(text=text, citations=tuple(Citation(n, s, n) for n, s in enumerate(sources, 1)))


# --- a list item keeps its code blocks, paragraphs and quotes (QA 1) --------------------------

STEPS = (
    "1. Install the package [^1]:\n\n"
    "   ```bash\n   pip install citecast\n   ```\n\n"
    "   Then check the version.\n\n"
    "   > It prints 1.0.\n\n"
    "2. Start the server [^2]:\n\n"
    "   ```bash\n   citecast serve\n   ```\n\n"
    "3. Open the chat."
)


def blocks_of(item: Token) -> list[str]:
    return [child["type"] for child in item["children"] if child["type"] != "blank_line"]


@pytest.mark.parametrize("channel", CHAT)
def test_a_code_block_inside_a_numbered_item_stays_in_the_item(channel: str) -> None:
    payload = render(channel, answer(STEPS, GUIDE, SERVER))
    tokens = parse(body_of(channel, payload))
    assert [t["type"] for t in tokens] == ["list"], tokens  # one list, not three
    first, second, third = tokens[0]["children"]
    assert blocks_of(first) == ["paragraph", "block_code", "paragraph", "block_quote"]
    codes = [c["raw"] for t in (first, second) for c in t["children"] if c["type"] == "block_code"]
    assert codes == ["pip install citecast\n", "citecast serve\n"]  # no extra leading spaces
    assert blocks_of(second) == ["paragraph", "block_code"]
    assert blocks_of(third) == ["paragraph"]


@pytest.mark.parametrize("channel", CHAT)
def test_a_tight_nested_list_and_code_keep_their_indentation(channel: str) -> None:
    text = "- Linux:\n  ```\n  apt install x\n  ```\n  - Debian\n  - Fedora\n- macOS"
    out = body_of(channel, render(channel, Answer(text=text)))
    assert out == "- Linux:\n  ```\n  apt install x\n  ```\n  - Debian\n  - Fedora\n- macOS"


# --- inline code keeps its backticks (QA 6) ---------------------------------------------------


@pytest.mark.parametrize(
    ("code", "discord", "discourse"),
    [
        ("code with ` backtick", "``code with ` backtick``", "``code with ` backtick``"),
        ("`x`", "`` `x` ``", "`` `x` ``"),
        ("a``b", "``a`\u200b`b``", "```a``b```"),  # Discord reads ``` anywhere as a block
    ],
)
def test_inline_code_keeps_its_backticks(code: str, discord: str, discourse: str) -> None:
    fence = "`" * (max(len(r) for r in re.findall("`+", code)) + 1)
    text = f"Run {fence} {code} {fence} now, please."
    for channel, expected in (("discord", discord), ("discourse", discourse)):
        out = body_of(channel, render(channel, Answer(text=text)))
        assert out == f"Run {expected} now, please.", channel
        span = parse(out)[0]["children"][1]
        assert span["type"] == "codespan"
        assert span["raw"].replace("\u200b", "") == code


# --- Discord sends every source, whole (QA 3, 4, 5) -------------------------------------------


def long_titled(k: int) -> tuple[Citation, ...]:
    """``k`` web sources with long titles, each cited with a quote (a text-fragment link)."""
    citations = []
    for n in range(1, k + 1):
        source = Source(
            id=f"s{n}",
            title=f"Source document number {n} " + "with a long descriptive subtitle " * 5,
            url=f"https://docs.example.com/page/{n}?ref=a&b=c",
            section=f"Chapter {n} > Part {n % 3}",
        )
        quote = f"the quoted passage number {n} that supports the claim in detail"
        citations.append(Citation(n, source, n, quote=quote, deep_link=deep_link(source, quote)))
    return tuple(citations)


def sixty() -> Answer:
    paragraphs = [
        "Sentence about the system that explains it at length. " * 4 + f"[^{n}]"
        for n in range(1, 61)
    ]
    return Answer(text="\n\n".join(paragraphs), citations=long_titled(60))


def source_entries(payload: dict[str, Any]) -> dict[int, list[str]]:
    """Each source number and the entries (lines) that list it."""
    entries: dict[int, list[str]] = {}
    for content in contents(payload):
        for m in re.finditer(r"^\\\[(\d+)\??\\\] .*$", content, re.M):
            entries.setdefault(int(m.group(1)), []).append(m.group(0))
    return entries


def test_discord_sends_every_cited_source_of_a_long_answer() -> None:
    payload = render("discord", sixty())
    check_discord(payload)
    entries = source_entries(payload)
    assert sorted(entries) == list(range(1, 61))
    assert all(len(lines) == 1 for lines in entries.values())
    for n, citation in enumerate(sixty().citations, 1):
        assert citation.source.url is not None
        assert f"(<{citation.source.url}>)" in entries[n][0]  # compacted: no quote highlight
    assert "more" not in "\n".join(contents(payload))


def test_discord_keeps_the_full_entries_while_the_list_is_short() -> None:
    citations = long_titled(3)
    text = " ".join(f"Fact [^{n}]." for n in range(1, 4))
    entries = source_entries(render("discord", Answer(text=text, citations=citations)))
    for n, citation in enumerate(citations, 1):
        assert citation.deep_link and f"(<{citation.deep_link}>)" in entries[n][0]
        assert citation.source.title and citation.source.title.strip() in entries[n][0]


@pytest.mark.parametrize("max_chars", [2000, 300])
def test_a_url_longer_than_a_message_leaves_its_entry_whole(max_chars: int) -> None:
    long_source = Source(id="L", title="Long URL source", url=LONG_URL, section="Search")
    caps = capabilities_for("discord", {"max_chars": max_chars})
    payload = render(
        "discord",
        answer("Long [^1] and normal [^2].", long_source, GUIDE),
        RenderContext(capabilities=caps),
    )
    check_discord(payload)
    assert all(len(c) <= max_chars for c in contents(payload))
    entries = source_entries(payload)
    assert entries[1] == ["\\[1\\] Long URL source (link too long to show) \u2014 Search"]
    assert entries[2] == ["\\[2\\] [Install guide](<https://docs.example/install>)"]
    assert "example.com/search" not in "\n".join(contents(payload))


def records(k: int) -> tuple[Citation, ...]:
    return tuple(
        Citation(
            n,
            Source(
                id=f"r{n}",
                kind="record",
                label=f"Plan {n}",
                columns={"price": str(n)},
                action=RecordAction("See plan", f"https://example.com/p/{n}"),
            ),
            n,
            columns=("price",),
        )
        for n in range(1, k + 1)
    )


def test_discord_record_actions_past_25_buttons_are_masked_links() -> None:
    text = " ".join(f"Plan {n} costs {n} [^{n}]." for n in range(1, 31))
    payload = render("discord", Answer(text=text, citations=records(30)))
    check_discord(payload)
    rows = payload["messages"][-1]["components"]
    buttons = [button["url"] for row in rows for button in row["components"]]
    assert buttons == [f"https://example.com/p/{n}" for n in range(1, 26)]
    entries = source_entries(payload)
    for n in range(1, 31):
        link = f"[See plan](<https://example.com/p/{n}>)"
        assert (link in entries[n][0]) == (n > 25), entries[n]


# --- Discourse defines every footnote it references (QA 2, 3) ---------------------------------


def test_discourse_compacts_sixty_definitions_into_one_post() -> None:
    payload = render("discourse", sixty())
    check_discourse(payload)
    assert "continued" not in payload
    refs, defined = discourse_footnotes(payload["raw"])
    assert refs == defined == set(range(1, 61))
    for citation in sixty().citations:
        assert citation.deep_link and citation.source.url
        assert f"]({citation.source.url})" in payload["raw"]  # compacted: no quote highlight
    assert "more sources" not in payload["raw"]


def test_discourse_keeps_full_definitions_when_they_fit() -> None:
    citations = long_titled(3)
    text = " ".join(f"Fact [^{n}]." for n in range(1, 4))
    raw = render("discourse", Answer(text=text, citations=citations))["raw"]
    for citation in citations:
        assert f"]({citation.deep_link})" in raw
        assert citation.source.title and citation.source.title.strip() in raw


@pytest.mark.parametrize("max_chars", [6000, 1500])
def test_discourse_moves_the_body_on_when_even_short_definitions_do_not_fit(
    max_chars: int,
) -> None:
    caps = capabilities_for("discourse", {"max_chars": max_chars})
    payload = render("discourse", sixty(), RenderContext(capabilities=caps))
    check_discourse(payload, limit=max_chars)
    posts = contents(payload)
    assert len(posts) > 1
    seen: set[int] = set()
    for post in posts:
        refs, defined = discourse_footnotes(post)
        assert refs == defined
        seen |= refs
        for block in post.split("\n\n"):
            assert not block.startswith("[^") or block.count("](https://") == block.count("\n") + 1
    assert seen == set(range(1, 61))


def test_discourse_keeps_a_long_link_whole_or_shows_the_title_alone() -> None:
    long_source = Source(id="L", title="Long URL source", url=LONG_URL, section="Search")
    text = "Long [^1] and normal [^2]."
    raw = render("discourse", answer(text, long_source, GUIDE))["raw"]
    assert f"[^1]: [Long URL source]({LONG_URL}), Search" in raw
    caps = capabilities_for("discourse", {"max_chars": 2000})
    small = render("discourse", answer(text, long_source, GUIDE), RenderContext(capabilities=caps))
    check_discourse(small, limit=2000)
    assert "continued" not in small
    assert small["raw"] == (
        "Long\u00a0[^1] and normal\u00a0[^2].\n\n"
        "[^1]: Long URL source (link left out to fit the post), Search\n"
        "[^2]: [Install guide](https://docs.example/install)"
    )


def test_discourse_other_sources_do_not_continue_a_footnote() -> None:
    context = RenderContext(show="all")
    raw = render("discourse", answer("Only the first [^1].", GUIDE, SERVER), context)["raw"]
    assert raw == (
        "Only the first\u00a0[^1].\n\n"
        "**Other sources**\n"
        "- \\[2\\] [Server guide](https://docs.example/serve)\n\n"
        "[^1]: [Install guide](https://docs.example/install)"
    )
