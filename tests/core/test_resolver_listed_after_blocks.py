"""A trailing source list right after code, a table, HTML or a held line start reads the same
streamed and one-shot (bot.resolver_text, bot.resolver_listed).

Found by hypothesis: streamed one character at a time, a line the resolver held back while it
was undecided (indented code ``    more``, whose last word may be a lead-in; a list item ``- see``;
a heading ``## More``) was still held when the source list after it was read, so the list looked
like the answer's only content and stayed, where ``resolve()`` removed it and cited the source it
names on a line of its own after code (README, "From raw answer to citations").
"""

from __future__ import annotations

import random

import pytest

from bot.models import Answer, Source
from bot.registry import SourceRegistry
from bot.resolver import ResolvePolicy, resolve
from tests.core.resolver_splits import streamed_at

POLICY = ResolvePolicy(model_cites=True)

CASES = [
    # indented code opening the answer: the list goes, its source on a line of its own
    ("    more\nSources:\n", "    more"),
    ("    more\nSources:\n- FAQ\n", "    more\n[^1]"),
    ("    more\n\nSources:\n- FAQ\n", "    more\n\n[^1]"),
    ("    1\nSources:\n- FAQ\n", "    1\n[^1]"),
    ("    more\n[^1]: FAQ\n", "    more\n[^1]"),
    ("text\n    more\nSources:\n- FAQ\n", "text\n    more\n[^1]"),
    # fenced code
    ("```\ncode\n```\nSources:\n- FAQ\n", "```\ncode\n```\n[^1]"),
    ("~~~\ncode\n~~~\n\nSources:\n- FAQ\n", "~~~\ncode\n~~~\n\n[^1]"),
    # a table
    ("| a | b |\n|---|---|\n| 1 | 2 |\nSources:\n- FAQ\n", "| a | b |\n|---|---|\n| 1 | 2 |\n[^1]"),
    # an HTML line: its block ends at a blank line, and the list inside it stays as written
    ("<div>x</div>\n\nSources:\n- FAQ\n", "<div>x</div>\n\n[^1]"),
    ("<div>x</div>\nSources:\n- FAQ\n", "<div>x</div>\nSources:\n- FAQ"),
    # prose lines held while their start was undecided: the footnote ends the line
    ("- see\nSources:\n- FAQ\n", "- see[^1]"),
    ("- see\n[^1]: FAQ\n", "- see[^1]"),
    ("## More\nSources:\n- FAQ\n", "## More[^1]"),
    ("1\nSources:\n- FAQ\n", "1[^1]"),
]


def faq_registry() -> SourceRegistry:
    """A registry with one source, [1] "FAQ" (https://x.example/faq)."""
    registry = SourceRegistry(["public"], secret=b"resolver-splits!")
    registry.register_all([Source("faq", title="FAQ", url="https://x.example/faq")])
    return registry


def random_cuts(raw: str, seed: int) -> list[int]:
    """Cut points splitting ``raw`` into pieces of 1 to 7 characters."""
    rng = random.Random(seed)
    cuts: list[int] = []
    at = rng.randint(1, 7)
    while at < len(raw):
        cuts.append(at)
        at += rng.randint(1, 7)
    return cuts


@pytest.mark.parametrize(("raw", "text"), CASES)
def test_one_shot_reads_the_list_after_the_block(raw: str, text: str) -> None:
    assert resolve(raw, faq_registry(), POLICY).text == text


@pytest.mark.parametrize(("raw", "text"), CASES)
def test_one_character_at_a_time_equals_one_shot(raw: str, text: str) -> None:
    expected = resolve(raw, faq_registry(), POLICY)
    streamed = streamed_at(raw, list(range(len(raw))), faq_registry(), POLICY)
    assert streamed.text == text
    assert streamed == expected


@pytest.mark.parametrize(("raw", "text"), CASES)
@pytest.mark.parametrize("seed", range(8))
def test_random_pieces_equal_one_shot(raw: str, text: str, seed: int) -> None:
    expected = resolve(raw, faq_registry(), POLICY)
    for coalesce in (0, 16):
        answer: Answer = streamed_at(raw, random_cuts(raw, seed), faq_registry(), POLICY, coalesce)
        assert answer.text == text
        assert answer == expected


def test_the_source_a_list_after_code_names_is_cited() -> None:
    answer = streamed_at("    more\nSources:\n- FAQ\n", list(range(24)), faq_registry(), POLICY)
    assert [(c.n, c.source.id) for c in answer.citations] == [(1, "faq")]
