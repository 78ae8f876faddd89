"""A link in a Discourse answer's text longer than half the configured post shows its text.

The longest link shown whole was half the forum's default post (32,000 // 2) whatever
``capabilities.discourse.max_chars`` (``discourse.max_post_length``) said. Under a smaller
limit (300, the forum's floor) a 400-character link could not fit any post, and since no cut
falls inside a link the post fitter cut it anyway: two posts each holding a fragment of raw
link syntax, and no working link.
"""

from __future__ import annotations

import pytest

from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import RenderContext, capabilities_for
from renderers.limits import LINK_TOO_LONG
from tests.renderers.payload_checks import check_discourse

GUIDE = Source(id="g", title="Guide", url="https://docs.example/g")
CITED = (Citation(n=1, source=GUIDE, source_number=1),)


def _posts(text: str, limit: int) -> list[str]:
    caps = capabilities_for("discourse", {"max_chars": limit})
    payload = render(
        "discourse", Answer(text=text, citations=CITED), RenderContext(capabilities=caps)
    )
    check_discourse(payload, limit=limit)
    return [str(payload["raw"]), *(str(raw) for raw in payload.get("continued") or [])]


def _url(length: int) -> str:
    return "https://docs.example/p?" + "q" * (length - 23)


@pytest.mark.parametrize("intro", ["", "Intro words. " * 10])
def test_a_link_longer_than_half_a_small_post_shows_its_text(intro: str) -> None:
    posts = _posts(f"{intro}See [the doc]({_url(400)}) now.[^1]", 300)
    assert all(len(post) <= 300 for post in posts)
    joined = "\n".join(posts)
    assert f"See the doc{LINK_TOO_LONG} now.[^1]" in joined
    assert "qqqq" not in joined  # no piece of the URL, as raw text or a broken link


def test_a_link_within_half_a_small_post_stays_whole() -> None:
    url = _url(120)
    posts = _posts(f"See [the doc]({url}) now.[^1]", 300)
    assert f"[the doc]({url})" in posts[0]
