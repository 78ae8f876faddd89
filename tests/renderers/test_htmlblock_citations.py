"""A ``[^n]`` inside an HTML block is a citation on every channel, and the HTML stays text.

A line opening with ``<style>``, ``<pre>``, ``<div>``, ``<!--`` … starts an HTML block, which
every renderer shows as literal text. Its citations used to stay raw ``[^1]`` markers, and
their sources were missing from the source list.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from bot.markdown import citations_in, parse
from bot.models import Answer, Citation, CitationAdded, Source, TextDelta
from renderers import CHANNELS, render
from renderers.base import RenderContext
from renderers.streaming import StreamRenderer

URL = "https://docs.example/guide-7"
SOURCE = Source(id="s1", title="Guide", url=URL)
OPENERS = {
    "style": "<style>p{}</style> ![^1] end.",
    "pre": "<pre>x = 1</pre> see[^1] end.",
    "div": "<div>Read the guide[^1].</div>",
    "comment": "<!-- note --> as shown[^1] end.",
    "details": "<details>More[^1]</details>",
}


def answer(text: str) -> Answer:
    return Answer(text=text, citations=(Citation(1, SOURCE, 1),))


def rendered(channel: str, text: str) -> dict[str, Any]:
    return render(channel, answer(text), RenderContext())


def blob(payload: dict[str, Any]) -> str:
    return json.dumps(payload, ensure_ascii=False)


def test_parse_gives_an_html_block_its_citations() -> None:
    (_, block) = parse("Word\n<style>p{}</style> ![^1] end.")
    assert block["type"] == "block_html"
    assert block["raw"] == "<style>p{}</style> ![^1] end.\n"
    assert citations_in([block]) == [1]
    assert "".join(str(t.get("raw", "[^1]")) for t in block["children"]) == block["raw"]


def test_citations_in_nested_html_blocks_are_counted() -> None:
    text = "- <div>in a list[^2]\n\n> <pre>\n> quoted[^3]\n"
    assert citations_in(parse(text)) == [2, 3]


@pytest.mark.parametrize("opener", sorted(OPENERS))
@pytest.mark.parametrize("channel", CHANNELS)
def test_the_source_of_a_citation_in_an_html_block_is_listed(opener: str, channel: str) -> None:
    payload = blob(rendered(channel, "Word\n" + OPENERS[opener]))
    assert URL in payload
    if channel == "discourse":  # a footnote reference, defined below the answer
        assert f"[^1]: [Guide]({URL})" in payload
        assert "\\\\[^1\\\\]" not in payload
    else:
        assert "[^1]" not in payload
        assert "\\\\[^1\\\\]" not in payload  # Discord's escaped raw marker


def test_web_shows_the_html_as_text_and_links_the_citation() -> None:
    html = rendered("web", "Word\n" + OPENERS["style"])["html"]
    assert "<style" not in html
    assert "&lt;style&gt;p{}&lt;/style&gt; !<sup" in html
    assert 'href="#cite-' in html


def test_email_shows_the_html_as_text_in_both_parts() -> None:
    payload = rendered("email", "Word\n" + OPENERS["style"])
    assert "<style" not in payload["html"]
    assert "&lt;style&gt;p{}&lt;/style&gt; !<sup" in payload["html"]
    assert "<style>p{}</style> ![1] end." in payload["text"]
    assert f"[1] Guide\n    {URL}" in payload["text"]


def test_slack_shows_the_html_as_text_and_links_the_citation() -> None:
    payload = blob(rendered("slack", "Word\n" + OPENERS["style"]))
    assert f"&lt;style&gt;p{{}}&lt;/style&gt; !<{URL}|[1]> end." in payload


@pytest.mark.parametrize("channel", ["discord", "discourse"])
def test_markdown_channels_escape_the_html(channel: str) -> None:
    payload = blob(rendered(channel, "Word\n" + OPENERS["div"]))
    assert "\\\\<div\\\\>Read the guide" in payload


UNCLOSED_PRE = "Intro\n\n<pre>\n# not a heading[^1]\n- not a bullet\n\nmore[^1]\n"


def test_a_heading_line_in_an_unclosed_pre_stays_text() -> None:
    web = rendered("web", UNCLOSED_PRE)["html"].split("<section")[0]  # the answer, not sources
    assert "<h1" not in web and "<li" not in web and "<pre" not in web
    assert "# not a heading<sup" in web
    email = rendered("email", UNCLOSED_PRE)
    body = email["html"].split(">Sources</h2>")[0]
    assert "<h1" not in body and "<li" not in body and "<pre" not in body
    assert "# not a heading[1]\n- not a bullet" in email["text"]
    for channel in ("discord", "discourse"):
        text = blob(rendered(channel, UNCLOSED_PRE))
        assert "\\\\# not a heading" in text and "\\\\- not a bullet" in text
    slack = blob(rendered("slack", UNCLOSED_PRE))
    assert f"\\n# not a heading<{URL}|[1]>\\n- not a bullet" in slack


def test_discourse_keeps_a_citation_in_html_a_reference() -> None:
    raw = rendered("discourse", "Word\n<div>\n[^1]: a note\nsee [^1](TCP)\n")["raw"]
    # neither a footnote definition of its own nor a link to "TCP"
    assert "\n[^1]\\: a note\nsee [^1]\\(TCP)" in raw
    assert raw.endswith(f"[^1]: [Guide]({URL})")


@pytest.mark.parametrize("channel", ["discord", "discourse", "email"])
def test_a_citation_after_a_url_in_html_is_not_part_of_it(channel: str) -> None:
    payload = blob(rendered(channel, "Word\n<div>see https://x.example/a[^1]\n"))
    assert "https://x.example/a [" in payload or "https://x.example/a \\\\[" in payload


def test_slack_preview_text_shows_the_citation_marker() -> None:
    message = rendered("slack", "Word\n" + OPENERS["style"])["messages"][0]
    assert message["text"] == "Word &lt;style&gt;p{}&lt;/style&gt; ![1] end."


@pytest.mark.parametrize("channel", CHANNELS)
def test_streaming_equals_one_shot(channel: str) -> None:
    text = "Start.\n\n<div>a[^1]\n\nNext paragraph.\n\n" + UNCLOSED_PRE
    full = answer(text)
    context = RenderContext()
    expected = render(channel, full, context)
    for size in (1, 7, 40):
        stream = StreamRenderer(channel, context)
        stream.feed([CitationAdded(c) for c in full.citations])
        bounds = [*range(0, len(text), size), len(text)]
        for a, b in itertools.pairwise(bounds):
            stream.feed([TextDelta(text[a:b])])
        assert stream.finish(full) == expected
    assert URL in blob(expected)
