"""Sources named only in a model's own source list or footnote definitions (bot.resolver_listed).

A trailing "Sources:" list (or ``[^2]: …`` definition lines) goes, but a source it names that
no marker of the answer cited becomes a citation after the last sentence before it; with no
text before it the list is the answer and stays, its markers read as anywhere else. Checked
with ``resolve()`` and the stream fed in several splits (``resolved_everywhere``).
"""

from __future__ import annotations

import pytest

from bot.models import Source
from bot.registry import SourceRegistry
from bot.resolver import resolve
from tests.core.resolver_splits import resolved_everywhere, two_sources

CASES = [
    # only the list names the sources: they are cited after the last sentence
    (
        "Install with pip.\n\nSources:\n- [1] Install guide\n- [2] Manual\n",
        "Install with pip.[^1][^2]",
    ),
    ("Install with pip.\nSources: [2]", "Install with pip.[^1]"),
    ("Install [1].\n\nReferences:\n1. Install guide\n2. Manual\n", "Install [^1].[^2]"),
    ("Install [2].\n\nSources:\n- [1] Install guide\n- [2] Manual\n", "Install [^1].[^2]"),
    # every source the list names is cited: it goes, as before
    ("Install [1] [2].\n\nSources:\n- [1] Install guide\n- [2] Manual\n", "Install [^1][^2]."),
    # a list that is the whole answer stays, its markers resolved
    (
        "Sources:\n- [1] Install guide\n- [2] Manual\n",
        "Sources:\n- [^1] Install guide\n- [^2] Manual",
    ),
    ("\n\nSources: [2], [1]", "\n\nSources: [^1], [^2]"),
    # after code, a table or a rule the citations take a line of their own
    ("```\ncode\n```\n\nSources: [2]", "```\ncode\n```\n\n[^1]"),
    ("| a |\n|---|\n| b |\n\nSources: [2]", "| a |\n|---|\n| b |\n\n[^1]"),
    ("    code\n\nSources: [1]", "    code\n\n[^1]"),
    # a list item's last line takes them
    ("- pip\n- uv\n\nSources:\n- [2] Manual", "- pip\n- uv[^1]"),
    # footnote definitions with no reference in the text
    ("Install with pip.\n\n[^1]: Install guide\n[^2]: Manual", "Install with pip.[^1][^2]"),
    ("Install [^1].\n\n[^1]: Install guide\n[^2]: Manual\n", "Install [^1].[^2]"),
    ("Install [^1].\n\n[^1]: Install guide\n", "Install [^1]."),
    ("Install.\n[^2]: Manual\n\nMore [1].", "Install.[^1]\n\nMore [^2]."),
    ("[1]: https://docs.test/install\n", "[^1]"),
    # a definition naming no source of the turn goes without a trace
    ("Install.\n\n[^9]: Other\n[^note]: a note", "Install."),
]


@pytest.mark.parametrize(("raw", "text"), CASES)
def test_sources_named_only_by_a_removed_list_are_cited(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text


def three_sources() -> SourceRegistry:
    registry = SourceRegistry(["public"], secret=b"listed-sources!!")
    registry.register_all(
        [
            Source("guide", title="Install guide", url="https://example.com/install"),
            Source("manual", title="Manual", url="https://example.com/manual"),
            Source("faq", title="FAQ", url="https://example.com/faq"),
        ]
    )
    return registry


def test_the_qa_example_keeps_its_citations() -> None:
    raw = "Install with pip.\n\nSources:\n- [1] Install guide\n- [3] FAQ\n"
    answer = resolve(raw, three_sources())
    assert answer.text == "Install with pip.[^1][^2]"
    assert [c.source_number for c in answer.citations] == [1, 3]
    assert answer.dropped == ()


def test_sources_named_by_url_or_title_are_cited_in_list_order() -> None:
    raw = "Install.\n\n## References\n\n* FAQ\n* https://example.com/manual\n"
    answer = resolve(raw, three_sources())
    assert answer.text == "Install.[^1][^2]"
    assert [c.source_number for c in answer.citations] == [3, 2]


def test_the_registry_of_the_splits_helper_is_the_one_the_cases_mean() -> None:
    assert [s.title for s in two_sources().numbered().values()] == ["Install guide", "Manual"]
