"""Links labelled like citations: shown as links only when they lead to a cited source.

``[\\[1\\]](https://evil)``, ``$[[1]](https://evil)$`` and ``[[1]](url)`` in text no model wrote
rendered as a clickable "[1]" to any address on every channel: a fake citation a reader trusts.
Now such a link shows its text alone (as a link to an unsafe URL does), unless its URL is a
cited source's (or a deep link into one); ordinary links are untouched (renderers.link_urls).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.models import Answer, Citation, CitationAdded, Source, TextDelta
from renderers import CHANNELS, render
from renderers.base import RenderContext
from renderers.link_urls import cites_source, reads_like_citation
from renderers.streaming import StreamRenderer

GUIDE = "https://docs.example/guide"
OTHER = "https://docs.example/a?x=1&y=2"
EVIL = "https://evil.example/x"

SOURCES = (
    Source(id="s1", title="Gateway guide", url=GUIDE, text="The gateway listens on port 8443."),
    Source(id="s2", title="Limits", url=OTHER, text="At most 50 blocks per message."),
    Source(id="s3", title="Notes", text="Restart after a change."),
)
CITATIONS = (
    Citation(
        n=1,
        source_number=1,
        source=SOURCES[0],
        quote="The gateway listens on port 8443.",
        deep_link=GUIDE + "#:~:text=port%208443",
    ),
    Citation(n=2, source_number=2, source=SOURCES[1], quote="At most 50 blocks per message."),
    Citation(n=3, source_number=3, source=SOURCES[2], quote="Restart after a change."),
)
OPENING = "The gateway listens on port 8443.[^1] Slack takes 50 blocks.[^2] Restart it.[^3]"
# the channels whose writers are given the answer's citation forms (Discourse's block step
# does not pass them yet: there every link labelled like a citation shows as text)
LINKING_CHANNELS = ("web", "slack", "email", "discord", "discourse")


def answer(text: str) -> Answer:
    return Answer(text=f"{OPENING}\n\n{text}", citations=CITATIONS)


def rendered(text: str, context: RenderContext | None = None) -> dict[str, str]:
    return {
        channel: json.dumps(render(channel, answer(text), context), ensure_ascii=False)
        for channel in CHANNELS
    }


LOOKALIKES = [
    "See [\\[1\\]](https://evil.example/x).",
    "See $[[1]](https://evil.example/x)$.",
    "See [[1]](https://evil.example/x).",
    "See [[1, 2]](https://evil.example/x) and [[2-3]](https://evil.example/x).",
    "See [\\[^1\\]](https://evil.example/x).",
    "See [&#91;1&#93;](https://evil.example/x).",
    "See [**[1]**](https://evil.example/x).",
    "See [\\[\u200b1\u200b\\]](https://evil.example/x).",
    "See [ [1] ](https://evil.example/x).",
    "See [[1?]](https://evil.example/x).",
    "See [[1][2]](https://evil.example/x).",
    "See [\u30101\u3011](https://evil.example/x).",
    "See ![[2]](https://evil.example/x).",
    'See [[1]](https://evil.example/x "source 1").',
    "See [[1]][ref].\n\n[ref]: https://evil.example/x",
    "- step one [[1]](https://evil.example/x)",
    "| a | b |\n|---|---|\n| port | [[1]](https://evil.example/x) |",
    "## Port [[1]](https://evil.example/x)",
    "> quoted [[1]](https://evil.example/x)",
    # a citation inside the label follows the link as a real marker; the rest reads "[1]"
    "See [\\[1\\] [^2]](https://evil.example/x).",
    # a look-alike of a cited source's address that is not it
    "See [[1]](https://docs.example/guide-evil) and [[1]](https://docs.example/guide?x).",
]


@pytest.mark.parametrize("text", LOOKALIKES)
def test_a_link_labelled_like_a_citation_to_elsewhere_shows_as_text(text: str) -> None:
    for channel, payload in rendered(text).items():
        assert "evil" not in payload, (channel, payload)


def test_its_text_stays_to_read() -> None:
    shown = {
        "web": "See [1].</p>",
        "slack": "See [1].",
        "email": "See [1].",
        "discord": "See \\\\[1\\\\].",
        "discourse": "See \\\\[1\\\\].",
    }
    for channel, payload in rendered("See [\\[1\\]](https://evil.example/x).").items():
        assert shown[channel] in payload, (channel, payload)


@pytest.mark.parametrize("channel", LINKING_CHANNELS)
@pytest.mark.parametrize(
    "url",
    [
        GUIDE + "#page=3",  # a deep link into cited source 1 (not the one its form has)
        OTHER + "#section-2",  # cited source 2, with "&" in its address
    ],
)
def test_a_link_labelled_like_a_citation_to_a_cited_source_stays(channel: str, url: str) -> None:
    payload = render(channel, answer(f"See [\\[1\\]]({url}) for the port."))
    links = [target for _, target in shown_links(channel, payload)]
    assert url in links, (channel, links)


ORDINARY = [
    "Read [the guide](https://evil.example/guide).",
    "Read the [2023 report](https://evil.example/report).",
    "Read [2023](https://evil.example/year) and [step [a]](https://evil.example/a).",
]


@pytest.mark.parametrize("channel", CHANNELS)
@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_links_are_untouched(channel: str, text: str) -> None:
    payload = render(channel, answer(text))
    targets = {target for _, target in shown_links(channel, payload)}
    for url in re.findall(r"\((https://evil[^)]*)\)", text):
        assert url in targets, (channel, targets)


@pytest.mark.parametrize(
    "label",
    ["[1]", "[12]", "[1, 3]", "[1,3]", "[2-4]", "[2\u20134]", "[^1]", "[1?]", " [ 1 ] ",
     "[1][2]", "[1], [2]", "[1 and 2]", "\u30101\u3011", "\uff3b1\uff3d", "[\u200b1\u2060]",
     "[\u0661]", "[\u00b9]"],
)  # fmt: skip
def test_labels_that_read_like_citations(label: str) -> None:
    assert reads_like_citation(label)


@pytest.mark.parametrize(
    "label",
    ["the guide", "2023 report", "2023", "1", "[a]", "[1] guide", "see [1]", "[1.2]", "(1)",
     "[]", "[^]", "[1-]", "https://docs.example/[1]", ""],
)  # fmt: skip
def test_labels_that_do_not(label: str) -> None:
    assert not reads_like_citation(label)


def test_a_cited_source_is_matched_as_the_parser_writes_its_address() -> None:
    source = Source(id="u", title="Café", url="https://docs.example/café?a=1&b=2")
    citation = Citation(n=1, source_number=1, source=source)
    from renderers.base import capabilities_for
    from renderers.document import decide_forms

    forms = decide_forms([citation], capabilities_for("web"), RenderContext())
    # mistune percent-encodes a link's address: "é" is "%C3%A9" in the token
    assert cites_source("https://docs.example/caf%C3%A9?a=1&b=2#page=2", forms)
    assert not cites_source("https://docs.example/cafe?a=1&b=2", forms)
    assert not cites_source(GUIDE, {})


@pytest.mark.parametrize("channel", CHANNELS)
def test_a_stream_agrees_when_the_source_arrives_after_the_link(channel: str) -> None:
    final = Answer(
        text=f"See [\\[1\\]]({GUIDE}#page=3) first.\n\nThe port is 8443.[^1]\n\nDone.",
        citations=CITATIONS[:1],
    )
    stream = StreamRenderer(channel)
    # the first paragraph completes (and is rendered) before citation 1 is known
    assert stream.feed([TextDelta(final.text)]).appended
    stream.feed([CitationAdded(CITATIONS[0])])
    assert stream.finish(final) == render(channel, final)


# --- every channel's links, read back from its payload ---------------------------------------

_HTML_LINK = re.compile(r"<a\b[^>]*?\bhref=\"([^\"]*)\"[^>]*>(.*?)</a>", re.S)
_SLACK_LINK = re.compile(r"<([^|<>]+)\|([^<>]*)>")
_MD_LINK = re.compile(r"(?<!\\)\[((?:[^\[\]\\]|\\.)*)\]\(<?([^()<>\s]*(?:\([^()]*\))?)>?\)")
_TEXT_LINK = re.compile(r"(\S*)[ \u00a0]<([^<>\s]+)>")
_TAG = re.compile(r"<[^>]+>")


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def shown_links(channel: str, payload: dict[str, Any]) -> list[tuple[str, str]]:
    """Every ``(label, url)`` link the payload shows, as a reader sees the label."""
    found: list[tuple[str, str]] = []
    if channel in ("web", "email"):
        for url, label in _HTML_LINK.findall(str(payload["html"])):
            if not url.startswith("#"):  # a marker pointing into the source list
                found.append((html.unescape(_TAG.sub("", label)), html.unescape(url)))
    if channel == "email":
        found += [(label, url) for label, url in _TEXT_LINK.findall(str(payload["text"]))]
    if channel == "slack":
        for text in _strings(payload["messages"]):
            for url, label in _SLACK_LINK.findall(text):
                found.append((html.unescape(label), html.unescape(url)))
    if channel in ("discord", "discourse"):
        for text in _strings(payload):
            for label, url in _MD_LINK.findall(text):
                # Discord shows a masked link's brackets as parentheses
                label = re.sub(r"\\(.)", r"\1", label).translate(str.maketrans("()", "[]"))
                found.append((label, url))
    return found


_LOOKS_CITED = re.compile(r"(?:[\[\u3010]\^?\d+(?:[,\-]\d+)*\??[\]\u3011],?)+")
_INVISIBLE = re.compile(r"[\s\u200b-\u200f\u2060\ufeff]")


def looks_cited(label: str) -> bool:
    """The test's own reading of a label as citation markers (independent of the module)."""
    return _LOOKS_CITED.fullmatch(_INVISIBLE.sub("", label)) is not None


CITED_DOCUMENTS = {GUIDE, OTHER}
TARGETS = [GUIDE, GUIDE + "#page=2", OTHER, OTHER + "#x", EVIL, "http://evil.example/a?b=1&c=2",
           GUIDE + "-evil", GUIDE + "/evil", "mailto:evil@evil.example"]  # fmt: skip
LABELS = ["\\[{n}\\]", "[{n}]", "\\[{n}, {m}\\]", "[{n}-{m}]", "\\[^{n}\\]", "&#91;{n}&#93;",
          "**[{n}]**", "\\[\u200b{n}\\]", "[{n}][{m}]", "\u3010{n}\u3011", " [{n}?] ",
          "the guide", "{n}"]  # fmt: skip


@st.composite
def links(draw: st.DrawFn) -> str:
    label = draw(st.sampled_from(LABELS)).format(
        n=draw(st.integers(1, 4)), m=draw(st.integers(1, 4))
    )
    url = draw(st.sampled_from(TARGETS))
    form = draw(st.sampled_from(["[{l}]({u})", "$[{l}]({u})$", "![{l}]({u})", "[{l}][r]"]))
    written = form.format(l=label, u=url)
    return written + (f"\n\n[r]: {url}" if "[r]" in form else "")


@st.composite
def lookalike_answers(draw: st.DrawFn) -> Answer:
    placed = [
        draw(st.sampled_from(["{}", "- {}", "## {}", "> {}", "| a |\n|---|\n| {} |"])).format(
            f"Before {draw(links())} after.[^{draw(st.integers(1, 3))}]"
        )
        for _ in range(draw(st.integers(1, 4)))
    ]
    return answer("\n\n".join(placed))


@settings(max_examples=60, deadline=None)
@given(case=lookalike_answers(), show=st.sampled_from(["cited", "all", "none"]))
def test_no_channel_links_a_citation_lookalike_anywhere_but_a_cited_source(
    case: Answer, show: str
) -> None:
    context = RenderContext(show=show)  # type: ignore[arg-type]
    for channel in CHANNELS:
        for label, url in shown_links(channel, render(channel, case, context)):
            if looks_cited(label):
                assert url.partition("#")[0] in CITED_DOCUMENTS, (channel, label, url, case.text)
