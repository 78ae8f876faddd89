"""``capabilities.discourse.max_chars`` below 200 is refused at load, in one line naming the key.

Any non-negative integer was taken, but a post must hold a sentence and a source entry at its
shortest (a 30-character title, an upload link, "weak support?"): ``citecast render`` at 158
gave a post of over 1,000 characters, and ``serve`` quietly used 200 instead (the connector
asks the renderer for no less).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config_file import load_settings
from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import DISCOURSE_MIN_MAX_CHARS, RenderContext, capabilities_for
from tests.core.config_refusals import refused


@pytest.mark.parametrize("value", [0, 150, 199])
def test_a_post_limit_too_small_for_a_post_is_refused(tmp_path: Path, value: int) -> None:
    path, message = refused(tmp_path, f"capabilities:\n  discourse:\n    max_chars: {value}\n")
    assert message == (
        f"{path}: capabilities.discourse.max_chars: must be at least 200 "
        "(a post holds a sentence and its sources)"
    )


def test_the_smallest_post_limit_loads(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("capabilities:\n  discourse:\n    max_chars: 200\n", encoding="utf-8")
    assert load_settings(path).capabilities == {"discourse": {"max_chars": 200}}


def test_other_channels_have_their_own_floors(tmp_path: Path) -> None:
    # Discord's is 200 too, but a message's (tests/core/test_config_capability_refusals.py)
    path = tmp_path / "config.yaml"
    path.write_text("capabilities:\n  slack:\n    max_chars: 150\n", encoding="utf-8")
    assert load_settings(path).capabilities == {"slack": {"max_chars": 150}}


def crowded_answer() -> Answer:
    """Three-digit citations, each a weak source with a long title; the last ten are files,
    whose entries cannot leave their upload link out."""
    citations = []
    for n in range(1, 121):
        title = "Title " * 50
        source = (
            Source(id=f"s{n}", title=title, page=3, path=f"/kb/f{n}.pdf",
                   filename="f" * 190 + ".pdf", media_type="application/pdf", kind="file")
            if n > 110
            else Source(id=f"s{n}", title=title, page=3,
                        url=f"https://docs.example.org/{'p' * 300}/{n}")
        )  # fmt: skip
        citations.append(Citation(n, source, n, support=0.1, quote="quoted words " * 20))
    text = " ".join(f"Fact [^{n}][^{n + 1}][^{n + 2}]." for n in range(1, 121, 3))
    return Answer(text=text, citations=tuple(citations))


def test_posts_at_the_smallest_limit_stay_within_it() -> None:
    caps = capabilities_for("discourse", {"max_chars": DISCOURSE_MIN_MAX_CHARS})
    payload = render("discourse", crowded_answer(), RenderContext(capabilities=caps))
    posts = [str(payload["raw"]), *(str(raw) for raw in payload.get("continued") or [])]
    assert max(len(post) for post in posts) <= DISCOURSE_MIN_MAX_CHARS
    assert len(payload["uploads"]) == 10
