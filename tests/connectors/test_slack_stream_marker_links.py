"""Links the model wrote in Slack's native stream follow the renderers' rule (README "Escaping").

Found in a QA pass: with ``streaming: native``, ``[[1]](https://evil.example/z)`` reached the
finished message as a second "[1]" opening a page no source is, and
``[https://docs.example.com/guide-1](https://evil.example/y)`` as a link whose label names
another host than it opens; ``edit`` and ``none`` show the first as text and the second as its
label followed by the address it opens (``renderers.link_urls``). Reference definitions
(``[x]: https://evil.example/c``) defined links for a ``[label]`` anywhere in the stream.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.connectors.slack_stream_links import links_of, marker_forms
from bot.connectors.slack_text import StreamMarkdown, to_stream_markdown
from bot.markdown import Token, parse
from bot.models import Answer
from renderers.base import RenderContext
from tests.connectors.slack_harness import (
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    mention,
    slack_world,
)

GUIDE = "https://docs.example.com/guide-1"
LOOKALIKES = (
    "Install it first.[^1] See [[1]](https://evil.example/z) and "
    "[https://docs.example.com/guide-1](https://evil.example/y)."
)
DEFINITIONS = (
    "Install it.[^1] See [the guide] and [1] and [docs.example.com][x].\n\n"
    "[the guide]: https://evil.example/a\n[1]: https://evil.example/b\n"
    "[x]: https://evil.example/c\n"
)


def links(tokens: list[Token]) -> list[tuple[str, str]]:
    """Each link and image mistune finds in ``tokens``: (its label's text, its URL)."""
    found: list[tuple[str, str]] = []
    for token in tokens:
        if token["type"] in ("link", "image"):
            label = "".join(str(t.get("raw", "")) for t in token.get("children") or [])
            found.append((label, str((token.get("attrs") or {}).get("url") or "")))
        else:
            found += links(token.get("children") or [])
    return found


def streamed(text: str, answer: Answer, piece: int) -> str:
    """``text`` through the stream in pieces of ``piece`` characters, the citations' forms
    known from the start, as the native sink streams it."""
    stream = StreamMarkdown()
    stream.forms = marker_forms(answer, RenderContext())
    stream.links = links_of(stream.forms)
    shown = [stream.feed(text[i : i + piece]) for i in range(0, len(text), piece)]
    return "".join(shown) + stream.flush()


async def test_the_finished_message_has_no_marker_or_address_link_to_another_page(
    tmp_path: Path,
) -> None:
    answer = answer_citing(1, LOOKALIKES)
    async with slack_world(tmp_path, CannedAnswerer(answer), streaming="native") as world:
        await world.post_event(mention("install?", ts="1600000000.000200"))
        assert world.fake.calls_to("chat.update") == []  # the streamed text is the final text
        [message] = [m for m in world.fake.bot_messages(PUBLIC) if m.get("text")]
    assert message["text"] == (
        f"Install it first.[[1]]({GUIDE}) See [1] and {GUIDE} "
        "([https://evil.example/y](https://evil.example/y))."
    )
    assert links(parse(message["text"])) == [
        ("[1]", GUIDE),
        ("https://evil.example/y", "https://evil.example/y"),
    ]


@pytest.mark.parametrize("piece", [1, 3, 500])
def test_a_marker_label_links_only_to_a_cited_source_however_the_text_is_cut(
    piece: int,
) -> None:
    text = (
        "See [\\[2\\]](https://evil.example/w), [&#91;1&#93;](https://evil.example/v), "
        "[**[1]**](https://evil.example/u) and [[1]](https://docs.example.com/guide-1#intro)."
    )
    shown = streamed(text, answer_citing(1), piece)
    assert links(parse(shown)) == [("[1]", "https://docs.example.com/guide-1#intro")]
    assert shown.startswith("See \\[2\\], &#91;1&#93;, **[1]** and"), shown


def test_a_marker_label_is_text_while_no_citation_is_known() -> None:
    assert to_stream_markdown(f"See [[1]]({GUIDE}).") == "See [1]."


def test_an_ordinary_label_and_its_own_address_stay_links() -> None:
    forms = marker_forms(answer_citing(1), RenderContext())
    text = (
        "Read [the guide](https://other.example/g) at [other.example/g](https://other.example/g)."
    )
    assert to_stream_markdown(text, forms=forms) == text


@pytest.mark.parametrize("piece", [2, 500])
def test_no_reference_definition_makes_a_link_in_the_stream(piece: int) -> None:
    """A definition may come after the ``[label]`` that uses it, already shown, so the stream
    cannot check each use as the renderers do: no definition defines a link."""
    shown = streamed(DEFINITIONS, answer_citing(1), piece)
    assert links(parse(shown)) == [("[1]", GUIDE)]  # the real marker alone
    assert "[docs.example.com][x]" in shown


async def test_the_native_message_links_no_defined_reference(tmp_path: Path) -> None:
    answer = answer_citing(1, DEFINITIONS)
    async with slack_world(tmp_path, CannedAnswerer(answer, chunk=7), streaming="native") as world:
        await world.post_event(mention("x", ts="1600000000.000800"))
        [message] = [m for m in world.fake.bot_messages(PUBLIC) if m.get("text")]
    assert links(parse(message["text"])) == [("[1]", GUIDE)]
