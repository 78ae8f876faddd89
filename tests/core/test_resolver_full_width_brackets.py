"""Full-width square brackets (``［1］``, U+FF3B/U+FF3D), as models write ``[1]`` in CJK text,
are citation markers read as ``[1]`` is, resolved at once and streamed alike (the cut-marker
hold of a model answer cut at its length limit knows them too).
"""

from __future__ import annotations

import pytest

from bot.assistant.openai_cut_marker import CutMarkerHold
from bot.markers import find_markers
from bot.models import Answer
from bot.resolver import ResolvePolicy
from tests.core.resolver_splits import resolved_alike, two_sources

MODEL = ResolvePolicy(model_cites=True)


def everywhere(raw: str) -> Answer:
    return resolved_alike(raw, two_sources, MODEL)


@pytest.mark.parametrize(
    ("raw", "text", "cited"),
    [
        ("再試行します［1］。", "再試行します[^1]。", [1]),
        ("手順です［2］［1］。", "手順です[^1][^2]。", [2, 1]),
        ("両方です［1, 2］。", "両方です[^1][^2]。", [1, 2]),
        ("両方です［1，2］。", "両方です[^1][^2]。", [1, 2]),
        ("両方です［1、2］と【1】。", "両方です[^1][^2]と[^1]。", [1, 2]),
    ],
)
def test_full_width_brackets_cite(raw: str, text: str, cited: list[int]) -> None:
    answer = everywhere(raw)
    assert answer.text == text
    assert [c.source.id for c in answer.citations] == [["a", "b"][n - 1] for n in cited]


@pytest.mark.parametrize("raw", ["配列［0］です。", "注記［注］です。", "`a［1］` です。"])
def test_what_a_reader_writes_in_full_width_brackets_stays_text(raw: str) -> None:
    assert everywhere(raw).text == raw
    assert find_markers(raw) == []


def test_a_full_width_marker_cut_at_the_length_limit_is_left_out() -> None:
    hold = CutMarkerHold("source")
    assert hold.feed("再試行します［1") == "再試行します"
    assert hold.end(cut=True) == ""
