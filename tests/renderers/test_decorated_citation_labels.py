"""Links labelled like a decorated citation (``[1.]``, ``[1†]``, ``[#1]``, ``[[1]]``, ``[1]:``,
a keycap ``[1️⃣]``, ``[1]<!-- -->``) open only cited sources, on every channel:
a reader takes such a label for a marker as readily as ``[1]``."""

from __future__ import annotations

import json
import time

import pytest

from bot.models import Answer, Citation, Source
from renderers import CHANNELS, render
from renderers.base import RenderContext
from renderers.link_urls import reads_like_citation

CONTEXT = RenderContext(public_base_url="https://bot.example", turn_id="t1")
SOURCE = Source(id="s1", title="Guide 1", url="https://docs.example/1")

DECORATED = [
    "[\\[\\[1\\]\\]](https://evil.example/x)",
    "[[[1]]](https://evil.example/x)",
    "[[1.]](https://evil.example/x)",
    "[[1\u2020]](https://evil.example/x)",
    "[[#1]](https://evil.example/x)",
    "[[1]:](https://evil.example/x)",
    "[[1\ufe0f\u20e3]](https://evil.example/x)",
    "[[1]<!-- -->](https://evil.example/x)",
    "[*[1.]*](https://evil.example/x)",
]


def rendered(text: str, channel: str) -> str:
    citation = Citation(n=1, source=SOURCE, source_number=1)
    answer = Answer(f"Claim {text} end.[^1]", (citation,))
    return json.dumps(render(channel, answer, CONTEXT), ensure_ascii=False)


@pytest.mark.parametrize("channel", CHANNELS)
@pytest.mark.parametrize("text", DECORATED)
def test_a_decorated_citation_label_never_opens_another_page(channel: str, text: str) -> None:
    payload = rendered(text, channel)
    assert "evil.example" not in payload, payload


@pytest.mark.parametrize("channel", CHANNELS)
def test_a_decorated_citation_label_may_open_its_cited_source(channel: str) -> None:
    payload = rendered("[[1.]](https://docs.example/1#page=2)", channel)
    assert "https://docs.example/1#page=2" in payload, payload


@pytest.mark.parametrize(
    "label",
    ["[[1]]", "[1.]", "[1\u2020]", "[#1]", "[1]:", "[1\ufe0f\u20e3]", "[1]<!-- -->", "*[1]*",
     "[1.][2.]", "[[1]][[2]]", "\u30101.\u3011", "[1, 2.]"],
)  # fmt: skip
def test_labels_that_read_like_decorated_citations(label: str) -> None:
    assert reads_like_citation(label)


@pytest.mark.parametrize(
    "label",
    ["[1.2]", "[1-]", "[v1]", "[1] guide", "see [1.]", "(1)", "[#]", "[1a]", "[.]", "1."],
)  # fmt: skip
def test_labels_with_letters_or_no_marker_do_not(label: str) -> None:
    assert not reads_like_citation(label)


def test_a_long_decorated_label_is_read_in_linear_time() -> None:
    labels = ["[" * 20_000 + "1", "[1" + "." * 20_000, "[1]" * 5000 + "x", "[.]" * 7000]
    start = time.perf_counter()
    for label in labels:
        reads_like_citation(label)
    assert time.perf_counter() - start < 0.5
