"""A file-search dagger whose label names a registry source cites that source (markerfix).

``【4:0†handbook.md】``: the number may be a message index; the label names the file. Read by the
scanner with ``Grammar.source_named`` answered by :func:`dagger_label_source`.
"""

from __future__ import annotations

import pytest

from bot.marker_dagger_labels import DaggerLabels, dagger_label_source
from bot.markers import Grammar, MarkerScanner, find_markers
from bot.models import Source
from bot.registry import SourceRegistry
from bot.resolver import ResolvePolicy, resolve
from tests.core.test_marker_model_forms import registry


def grammar(found: SourceRegistry) -> Grammar:
    return Grammar(model_cites=True, source_named=lambda label: dagger_label_source(found, label))


def numbers(raw: str) -> list[tuple[int, ...]]:
    """The numbers of each marker in ``raw``, checked to be those of every stream of it."""
    scanned = find_markers(raw, grammar(registry()))
    whole = MarkerScanner(grammar(registry())).scan_all(raw)
    for size in (1, 2, 3, 5):
        scanner = MarkerScanner(grammar(registry()))
        tokens = [t for at in range(0, len(raw), size) for t in scanner.feed(raw[at : at + size])]
        tokens += scanner.finish()
        assert "".join(t if isinstance(t, str) else t.raw for t in tokens) == "".join(
            t if isinstance(t, str) else t.raw for t in whole
        )
        assert [t.numbers for t in tokens if not isinstance(t, str)] == [
            t.numbers for t in whole if not isinstance(t, str)
        ]
    return [m.numbers for m in scanned]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Leave is 25 days【4:0†handbook.md】.", [(5,)]),
        ("Retries【1:2†FAQ】.", [(2,)]),
        ("Leave【4:0†docs/handbook.md】.", [(5,)]),
        ("Leave [4:0†Handbook].", [(5,)]),
    ],
)
def test_a_dagger_label_naming_a_source_cites_it_not_the_number(
    raw: str, expected: list[tuple[int, ...]]
) -> None:
    assert numbers(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Retries【2†source】.", [(2,)]),  # names no source: the number decides, as before
        ("Pay【1:0†Salaries】.", [(1,)]),  # a source the viewer may not see is never named
        ("Plans【3:0†pricing.pdf】.", [(3,)]),  # no source has that file name
    ],
)
def test_a_dagger_label_naming_no_visible_source_leaves_the_number(
    raw: str, expected: list[tuple[int, ...]]
) -> None:
    assert numbers(raw) == expected


def test_a_label_naming_two_sources_names_none() -> None:
    found = SourceRegistry(("public",), secret=b"markerfix-tests!")
    found.register_all(
        [Source(id="a", title="Guide"), Source(id="b", title="Notes", filename="guide")]
    )
    assert dagger_label_source(found, "guide") is None
    assert dagger_label_source(found, "Notes") == 2


def test_a_source_registered_mid_turn_is_named_from_then_on() -> None:
    found = SourceRegistry(("public",), secret=b"markerfix-tests!")
    found.register_all([Source(id="a", title="Guide")])
    labels = DaggerLabels(found)
    assert (labels("Guide"), labels("notes.md")) == (1, None)
    found.register_all([Source(id="b", title="Notes", filename="docs/notes.md")])
    assert (labels("Guide"), labels("notes.md"), labels("DOCS/NOTES.MD")) == (1, 2, 2)


def test_resolve_cites_the_source_a_dagger_label_names() -> None:
    answer = resolve(
        "Leave is 25 days【4:0†handbook.md】 and【1:2†FAQ】.",
        registry(),
        ResolvePolicy(model_cites=True),
    )
    assert [c.source.id for c in answer.citations] == ["handbook.md", "faq"]
