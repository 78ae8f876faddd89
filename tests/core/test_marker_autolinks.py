"""A bracket number inside an angle-bracket autolink is part of its address, not a citation.

mistune reads ``<scheme:…>`` (no space, no ``<``) as a link to the text between the brackets;
README: "a link destination stays as written". Read as a marker, ``[2]`` in the address became
``[^1]`` (the link opened another page, and every channel showed a raw ``[^1]``).
"""

from __future__ import annotations

import pytest

from bot.markdown import citations_in, parse
from bot.marker_autolinks import MAX_AUTOLINK
from bot.models import Source, TextDelta
from bot.registry import SourceRegistry
from bot.resolver import ResolvePolicy, StreamResolver, resolve
from renderers import render
from renderers.base import RenderContext
from tests.core.resolver_splits import resolved_alike

POLICY = ResolvePolicy(model_cites=True)


def registry() -> SourceRegistry:
    found = SourceRegistry(frozenset({"public"}))
    found.register_all(
        [
            Source(id=f"s{i}", title=f"Guide {i}", url=f"https://docs.example.com/g{i}")
            for i in (1, 2, 3)
        ]
    )
    return found


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        (
            "See <https://docs.example.com/g1?x=[2]> now [1].",
            "See <https://docs.example.com/g1?x=[2]> now [^1].",
        ),
        ("<mailto:a@b.example?subject=[3]> [2]", "<mailto:a@b.example?subject=[3]> [^1]"),
        ("<https://x.example/^[2]^>[1]", "<https://x.example/^[2]^>[^1]"),
        ("<HTTP://x.example/<[2]>", "<HTTP://x.example/<[^1]>"),  # a "<" ends it: no link
        ("<https://x.example/a b[2]>", "<https://x.example/a b[^1]>"),  # a space: no link
        ("<h:x[2]> [1]", "<h:x[^1]> [^2]"),  # a one-letter scheme: no link
        ("`<https://x?[2]`> [1]", "`<https://x?[2]`> [^1]"),  # a code span came first
    ],
)
def test_an_autolink_keeps_its_address(raw: str, text: str) -> None:
    answer = resolved_alike(raw, registry, POLICY)
    assert answer.text == text
    # the resolver and the renderers' parser agree on what cites
    assert citations_in(parse(answer.text)) == [c.n for c in answer.citations]


def test_a_model_s_slack_style_link_is_the_address_it_opens() -> None:
    """``<url|[2]>`` is a CommonMark autolink to ``url|[2]``: shown as that address, never a
    link labelled ``[2]`` (a citation's look) and never a raw ``[^1]``."""
    raw = "Slack-style <https://evil.example|[2]> link, then [1]."
    answer = resolved_alike(raw, registry, POLICY)
    assert answer.text == "Slack-style <https://evil.example|[2]> link, then [^1]."
    assert [c.source.id for c in answer.citations] == ["s1"]
    html = str(render("web", answer, RenderContext())["html"])
    assert "[^" not in html
    assert "https://evil.example|[2]" in html


def test_an_open_autolink_is_held_back_until_it_closes() -> None:
    resolver = StreamResolver(registry(), POLICY, coalesce=0)
    first = resolver.feed("Go <https://docs.example.com/g1?x=[2]")
    assert "".join(e.text for e in first if isinstance(e, TextDelta)) == "Go"
    rest = resolver.feed("> [1]")
    events, answer = resolver.finish()
    shown = "".join(e.text for e in (*first, *rest, *events) if isinstance(e, TextDelta))
    assert shown == answer.text == "Go <https://docs.example.com/g1?x=[2]> [^1]"


def test_the_wait_is_bounded() -> None:
    """An address longer than MAX_AUTOLINK is not read as one (by the batch scan either), so a
    stream holds back at most that many characters."""
    long = "<https://x.example/" + "a" * MAX_AUTOLINK + "[2]> [1]"
    resolver = StreamResolver(registry(), POLICY, coalesce=0)
    events = resolver.feed(long[: MAX_AUTOLINK + 1])
    assert "".join(e.text for e in events if isinstance(e, TextDelta)).startswith("<https://")
    assert resolve(long, registry(), POLICY).text.endswith("a[^1]> [^2]")
    assert resolved_alike(long, registry, POLICY).text.endswith("a[^1]> [^2]")


def test_in_an_html_block_the_markers_count_as_mistune_shows_them() -> None:
    raw = "<div>\n<https://x.example/[2]>\n</div>\n\nFact [1]."
    answer = resolved_alike(raw, registry, POLICY)
    assert citations_in(parse(answer.text)) == [c.n for c in answer.citations] == [1, 2]


def test_a_record_label_in_an_autolink_s_address_is_not_cited_there() -> None:
    """``infer_from_mentions`` writes a citation after a label it finds, never inside code,
    math or an autolink: ``<https://shop.example/Widget[^1]>`` opened another page."""
    found = SourceRegistry()
    found.register_all([Source("w", kind="record", label="Widget", columns={"price": "2"})])
    policy = ResolvePolicy(infer_from_mentions=True)
    raw = "See <https://shop.example/Widget> now."
    assert resolve(raw, found, policy).text == raw
