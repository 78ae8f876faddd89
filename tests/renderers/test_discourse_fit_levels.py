"""Discourse: a post fitted to a small limit takes shorter footnotes before it cuts a sentence,
and rendering alone never returns a post over its limit.

Two sentences citing an uploaded file each: at ``max_chars`` 228 or more the first sentence
fits a post beside its footnote at the shortest level (not at the richest, which names the
section too), and it must come whole; below that it cannot, and is cut, but no post is longer
than ``max_chars`` (a 261-character post came out for 200 to 244).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.models import Answer, Source
from bot.registry import SourceRegistry
from bot.resolver import resolve
from renderers import render
from renderers.base import RenderContext, capabilities_for
from tests.renderers.payload_checks import check_discourse

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GETTING_STARTED = Source(
    id="g",
    title="Getting started with citecast",
    filename="getting-started.md",
    path=str(EXAMPLES / "getting-started.md"),
    section="Install > macOS",
    text="On macOS, install Python.",
)
HANDBOOK = Source(
    id="h",
    title="citecast operations handbook",
    filename="operations-handbook.pdf",
    path=str(EXAMPLES / "operations-handbook.pdf"),
    media_type="application/pdf",
    page=1,
    text="This handbook is for operators.",
)
RAW = (
    "On macOS, install Python 3.11 from python.org or with Homebrew (`brew install"
    " python@3.11`), then follow the same steps as on Linux [1]. This handbook is for operators"
    " who run citecast for a team [2]."
)
# the first sentence, its reference and its shortest definition: the smallest post holding it
WHOLE_FROM = 228


def answer() -> Answer:
    registry = SourceRegistry(["public"])
    registry.register_all([GETTING_STARTED, HANDBOOK])
    return resolve(RAW, registry)


def posts(limit: int) -> list[str]:
    caps = capabilities_for("discourse", {"max_chars": limit, "min_chars": 20})
    payload = render("discourse", answer(), RenderContext(capabilities=caps))
    return [str(payload["raw"]), *(str(raw) for raw in payload.get("continued") or [])]


@pytest.mark.parametrize("limit", range(200, 420, 4))
def test_no_post_is_longer_than_its_limit(limit: int) -> None:
    caps = capabilities_for("discourse", {"max_chars": limit, "min_chars": 20})
    payload = render("discourse", answer(), RenderContext(capabilities=caps))
    check_discourse(payload, limit=limit)
    assert all(len(raw) <= limit for raw in posts(limit)), [len(raw) for raw in posts(limit)]


@pytest.mark.parametrize("limit", range(WHOLE_FROM, 420, 4))
def test_a_sentence_a_post_holds_with_shorter_footnotes_is_not_cut(limit: int) -> None:
    bodies = [raw.split("\n\n[^")[0].rstrip() for raw in posts(limit)]
    assert all(body.endswith(".") for body in bodies), bodies


def test_the_shorter_footnote_is_the_one_that_gives_way() -> None:
    [first, *_] = posts(WHOLE_FROM + 8)
    assert first.startswith("On macOS") and "Linux\u00a0[^1]." in first
    assert "Install \\> macOS" not in first  # the section is what the shorter level drops
