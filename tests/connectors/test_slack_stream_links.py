"""Links in Slack's native stream: only http, https and mailto, and markers linked to sources.

Found in a QA pass: with ``streaming: native`` the model's ``[docs](javascript:alert(1))`` and
``[x](data:text/html,hi)`` reached the final message as written (``none`` and ``edit`` show
them as text), and ``[1]`` was plain text though its source has a URL. The streamed markdown
is read back with the project's own CommonMark parser (mistune) to find every link in it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from bot.connectors.slack_stream_links import marker_links, open_link_start, safe_links
from bot.connectors.slack_text import StreamMarkdown, to_stream_markdown
from bot.markdown import Token, parse
from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import RenderContext, is_safe_url
from tests.connectors.slack_harness import (
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    mention,
    slack_world,
)

HOSTILE = (
    "See [docs](javascript:alert(1)) and [x](data:text/html,hi) and "
    "[ok](https://ok.example) here [^1]."
)
GUIDE = "https://docs.example.com/guide-1"


def link_urls(tokens: list[Token]) -> list[str]:
    """Every link and image destination mistune finds in ``tokens``."""
    found: list[str] = []
    for token in tokens:
        if token["type"] in ("link", "image"):
            found.append(str((token.get("attrs") or {}).get("url") or ""))
        found += link_urls(token.get("children") or [])
    return found


def streamed_text(calls: list[Any]) -> str:
    text = ""
    for call in calls:
        text += str(call.args.get("markdown_text") or "")
        for chunk in call.args.get("chunks") or []:
            text += str(chunk.get("text") or "")
    return text


async def test_the_native_stream_links_nothing_unsafe_and_links_its_markers(
    tmp_path: Path,
) -> None:
    for chunk in (3, 7, 40):
        answer = answer_citing(1, HOSTILE)
        folder = tmp_path / str(chunk)
        folder.mkdir()
        async with slack_world(
            folder, CannedAnswerer(answer, chunk=chunk), streaming="native", stream_buffer_chars=5
        ) as world:
            await world.post_event(mention("everything", ts="1600000000.030000"))
            fake = world.fake
            [message] = fake.bot_messages(PUBLIC, thread_ts="1600000000.030000")
            assert fake.calls_to("chat.update") == []  # the streamed text is the final text
            calls = [
                c
                for method in ("chat.startStream", "chat.appendStream", "chat.stopStream")
                for c in fake.calls_to(method, ok_only=True)
            ]
            for text in (message["text"], streamed_text(calls)):
                assert text == (
                    f"See docs and x and [ok](https://ok.example) here\xa0[[1]]({GUIDE})."
                )
                assert link_urls(parse(text)) == ["https://ok.example", GUIDE]


def test_a_link_split_between_pieces_is_held_until_its_destination_is_known() -> None:
    stream = StreamMarkdown()
    assert stream.feed("See [docs](java") == "See"
    assert stream.feed("script:alert(1)") == ""
    assert stream.feed(") now") == " docs now"
    assert stream.feed(" and [ok](https://ok.example)") == " and [ok](https://ok.example)"
    assert stream.flush() == ""


def test_definitions_and_markers_cannot_point_anywhere_unsafe() -> None:
    text = "Use [this][r] or [r] [^1].\n\n[r]: javascript:alert(1)\n[^1]: data:x\n"
    shown = to_stream_markdown(text)
    assert all(is_safe_url(url) for url in link_urls(parse(shown)))
    # a marker with no link of its own never reads as a link's label
    assert link_urls(parse(to_stream_markdown("Fact [^1](javascript:alert(1))."))) == []


def test_only_an_absolute_safe_url_is_a_destination() -> None:
    # ">mailto:…" is a relative URL, not mailto: (found by a random search)
    for text in ("[a](>mailto:a@b.example)", "[a]\n\n[a]: >mailto:a@b.example"):
        assert link_urls(parse(to_stream_markdown(text))) == []


def test_a_citation_inside_a_link_follows_it() -> None:
    assert safe_links("[the guide [^1]](https://g.example)") == "[the guide](https://g.example)[^1]"
    assert safe_links("[the guide [^1]](javascript:x)") == "the guide[^1]"
    # a link inside a link's label is made safe too (CommonMark would keep the inner one)
    assert safe_links("[a [b](javascript:x)](https://ok.example)") == "[a b](https://ok.example)"


def test_only_an_unfinished_link_is_held() -> None:
    assert open_link_start("a [b](https://x.example) c") is None
    assert open_link_start("a [b] c") is None
    assert open_link_start("a [b](https://x.exa") == 2
    assert open_link_start("a [b") == 2
    assert open_link_start("a [b\n\nc") is None  # a link never spans a blank line


PIECES = [
    "a", " ", "  ", "\t", "\n", "\n\n", "[", "]", "(", ")", ":", "!", "<", ">", "'", "[^1]",
    "javascript:x", "data:y", "https://ok.example", "mailto:a@b.example", '"t"', "\\",
]  # fmt: skip


@given(
    pieces=st.lists(st.sampled_from(PIECES), max_size=24),
    cuts=st.lists(st.integers(min_value=0, max_value=200), max_size=8),
)
def test_whatever_the_model_writes_the_stream_links_only_safe_urls(
    pieces: list[str], cuts: list[int]
) -> None:
    text = "".join(pieces)
    stream = StreamMarkdown()
    stream.links = {1: GUIDE}
    shown, last = [], 0
    for cut in sorted(c for c in cuts if c <= len(text)):
        shown.append(stream.feed(text[last:cut]))
        last = cut
    shown.append(stream.feed(text[last:]))
    out = "".join(shown) + stream.flush()
    # however it was cut: CommonMark (mistune) finds no link to anything but a safe URL
    assert all(is_safe_url(url) for url in link_urls(parse(out))), out
    whole = to_stream_markdown(text, links={1: GUIDE})
    assert all(is_safe_url(url) for url in link_urls(parse(whole))), whole


def test_a_marker_links_where_the_rendered_message_links_it() -> None:
    files = Source(id="f", title="Notes", path="kb/notes.md", filename="notes.md")
    answer = Answer(
        text="Fact [^1]. Other [^2].",
        citations=(*answer_citing(1).citations, Citation(2, files, 2)),
    )
    context = RenderContext()
    rendered = render("slack", answer, context)["messages"][0]["blocks"][0]["text"]["text"]
    assert f"<{GUIDE}|[1]>" in rendered and "<" not in rendered.split("Other")[1]
    assert marker_links(answer, context) == {1: GUIDE}  # an attached file has no link
