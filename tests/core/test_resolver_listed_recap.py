"""A model citing registry numbers that recaps its sources in a list, in any order, keeps every
citation it wrote (bot.listed_items.numbers_own_notes, bot.resolver_listed).

The registry is the one of tests/core/test_resolver_listed_labels.py: 1 Install guide, 2 FAQ,
3 Pricing (pdf), 4 the record CC Team, 5 Handbook (handbook.md); a model told to cite.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bot.listed_items import numbers_own_notes, read_item
from bot.models import Answer
from bot.resolver import ResolvePolicy, resolve
from tests.core.resolver_splits import streamed_at
from tests.core.test_resolver_listed_labels import PRICING_PDF, cited, everywhere, registry

MODEL = ResolvePolicy(model_cites=True)

CASES = [
    # the security review's cases: registry numbers, then the sources in the order cited
    (
        "Answers come by mail [2]. Install with pip [1].\n\nSources:\n1. FAQ\n2. Install guide",
        "Answers come by mail [^1]. Install with pip [^2].",
        ["faq", "install"],
    ),
    (
        "Team costs 49 EUR [3]. Install with pip [1]. Mail us [2].\n\n"
        "Sources:\n1. Pricing\n2. Install guide\n3. FAQ",
        "Team costs 49 EUR [^1]. Install with pip [^2]. Mail us [^3].",
        ["pricing", "install", "faq"],
    ),
    # the same recap as footnotes, with "1)" numbers, by URL, or in a reverse order
    (
        "Answers come by mail[^2]. Install with pip[^1].\n\nSources:\n1) FAQ\n2) Install guide",
        "Answers come by mail[^1]. Install with pip[^2].",
        ["faq", "install"],
    ),
    (
        "Mail [2]. Pip [1].\n\nSources:\n"
        "1. https://docs.example.com/faq\n2. [Install](https://docs.example.com/install)",
        "Mail [^1]. Pip [^2].",
        ["faq", "install"],
    ),
    (
        "Pip [1]. Mail [2]. Team [3].\n\nSources:\n1. Pricing\n2. FAQ\n3. Install guide",
        "Pip [^1]. Mail [^2]. Team [^3].",
        ["install", "faq", "pricing"],
    ),
    # cited numbers that did not first appear as 1, 2, …: registry numbers, whatever the list
    # names (what the markers do not cite is cited after the text)
    (
        "Mail [2]. Pip [1].\n\nSources:\n1. Pricing\n2. Handbook",
        "Mail [^1]. Pip [^2].[^3][^4]",
        ["faq", "install", "pricing", "handbook.md"],
    ),
    # a footnote definition states what its label stands for: already consistent, it stays so
    (
        "A [^2]. B [^1].\n\n[^1]: Install guide\n[^2]: FAQ",
        "A [^1]. B [^2].",
        ["faq", "install"],
    ),
    # ...and swapped definitions still re-point, in any order of first use
    (
        "A [^2]. B [^1].\n\n[^1]: FAQ\n[^2]: Install guide",
        "A [^1]. B [^2].",
        ["install", "faq"],
    ),
    # the model's own numbering (1, 2, … first used in that order) still follows the titles
    (
        "Team costs 49 EUR [1]. Leave is 25 days [2].\n\nSources:\n1. Pricing\n2. Handbook",
        "Team costs 49 EUR [^1]. Leave is 25 days [^2].",
        ["pricing", "handbook.md"],
    ),
]


@pytest.mark.parametrize(("raw", "text", "sources"), CASES)
def test_a_recap_list_keeps_the_registry_numbers_the_markers_cite(
    raw: str, text: str, sources: list[str]
) -> None:
    answer = everywhere(raw)
    assert (answer.text, cited(answer)) == (text, sources)


def test_an_ordered_list_numbers_the_models_own_notes_only_when_it_is_no_recap() -> None:
    found = registry()
    faq_install = [read_item(found, "1. FAQ"), read_item(found, "2. Install guide")]
    pricing = [read_item(found, "1. Pricing")]
    assert not numbers_own_notes(found, faq_install, [2, 1])
    assert not numbers_own_notes(found, faq_install, [1, 2])  # the cited sources, reordered
    assert not numbers_own_notes(found, pricing, [2])  # 2 was not the first note's number
    assert numbers_own_notes(found, pricing, [1])
    assert numbers_own_notes(found, pricing, [])


# registry number -> the ways a list item may name it
NAMES = {
    1: ("Install guide", "https://docs.example.com/install"),
    2: ("FAQ", "https://docs.example.com/faq", "[FAQ](https://docs.example.com/faq)"),
    3: ("Pricing", PRICING_PDF, f"[the price list]({PRICING_PDF})"),
    4: ("CC Team",),
    5: ("Handbook", "handbook.md"),
}
BULLETS = ("{}. ", "{}) ", "- ", "* ")


@st.composite
def recaps(draw: st.DrawFn) -> tuple[str, list[int]]:
    """An answer citing registry numbers, then a list naming exactly those sources in any
    order; with the sources in the order the markers first cite them."""
    numbers = draw(st.lists(st.sampled_from(sorted(NAMES)), min_size=1, max_size=5, unique=True))
    markers = draw(st.permutations(numbers))
    markers += draw(st.lists(st.sampled_from(numbers), max_size=3))
    footnote = draw(st.booleans())
    text = " ".join(
        f"Claim {i}" + (f"[^{n}]." if footnote else f" [{n}].") for i, n in enumerate(markers)
    )
    items = [
        draw(st.sampled_from(BULLETS)).format(at) + draw(st.sampled_from(NAMES[n]))
        for at, n in enumerate(draw(st.permutations(numbers)), 1)
    ]
    return text + "\n\nSources:\n" + "\n".join(items), list(dict.fromkeys(markers))


def _registry_numbers(answer: Answer) -> list[int]:
    return [c.source_number for c in sorted(answer.citations, key=lambda c: c.n)]


@given(recaps(), st.integers(min_value=1, max_value=7), st.sampled_from([0, 16]))
@example(("Mail [2]. Pip [1].\n\nSources:\n1. FAQ\n2. Install guide", [2, 1]), 1, 0)
@example(("Mail[^2]. Pip[^1].\n\nSources:\n- Install guide\n- FAQ", [2, 1]), 3, 16)
def test_a_recap_in_any_order_cites_what_the_markers_numbers_say(
    case: tuple[str, list[int]], size: int, coalesce: int
) -> None:
    raw, numbers = case
    answer = resolve(raw, registry(), MODEL)
    assert _registry_numbers(answer) == numbers
    assert "Sources" not in answer.text
    cuts = list(range(0, len(raw), size))
    assert streamed_at(raw, cuts, registry(), MODEL, coalesce) == answer
