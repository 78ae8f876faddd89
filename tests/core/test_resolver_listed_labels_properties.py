"""Stream == one-shot for answers whose own footnotes and source lists name sources by title
or URL (bot.resolver_listed relabels their markers): property tests (hypothesis)."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from bot.resolver import ResolvePolicy, resolve
from tests.core.resolver_splits import streamed_at
from tests.core.test_resolver_listed_labels import PRICING_PDF, registry

FRAGMENTS = [
    "Fact",
    " ",
    "\n",
    "\n\n",
    ".",
    "[1]",
    "[2]",
    "[3]",
    "[7]",
    "[^1]",
    "[^2]",
    "[^7]",
    "[^1]: Pricing\n",
    "[^2]: Handbook\n",
    "[^1]: FAQ",
    "[^7]: Install guide\n",
    f"[^2]: {PRICING_PDF}\n",
    f"[^1]: [Pricing]({PRICING_PDF})\n",
    "[3]: https://docs.example.com/faq\n",
    "[^1]: Salaries\n",
    "    more\n",
    "---\n",
    "***\n",
    "Sources:\n",
    "1. Pricing\n",
    "2. Handbook\n",
    "1. Install guide\n",
    "- [1] FAQ\n",
    "[^",
    "]:",
]

texts = st.lists(st.sampled_from(FRAGMENTS), max_size=14).map("".join)
cuts = st.lists(st.integers(min_value=0, max_value=10_000), max_size=10)
POLICIES = st.sampled_from(
    [
        ResolvePolicy(model_cites=True),
        ResolvePolicy(),
        ResolvePolicy(numbering="registry", infer_from_mentions=True),
        ResolvePolicy(model_cites=True, max_citations=1),
    ]
)


@given(texts, cuts, st.sampled_from([0, 1, 16, 128]), POLICIES)
@example("Fact[^1]. Fact[^2].\n\n[^1]: Pricing\n[^2]: Handbook\n", [5, 20, 33], 0, ResolvePolicy())
@example("[^1]: FAQ[1]\n\n---\n[^2]: Handbook\n", [3, 9], 1, ResolvePolicy(model_cites=True))
def test_stream_equals_resolve_with_the_models_own_labels(
    raw: str, split: list[int], coalesce: int, policy: ResolvePolicy
) -> None:
    expected = resolve(raw, registry(), policy)
    assert streamed_at(raw, split, registry(), policy, coalesce) == expected
    assert len({c.source_number for c in expected.citations}) == len(expected.citations)
    assert "salaries" not in {c.source.id for c in expected.citations}


@given(texts)
def test_stream_one_character_at_a_time_equals_resolve(raw: str) -> None:
    policy = ResolvePolicy(model_cites=True)
    expected = resolve(raw, registry(), policy)
    assert streamed_at(raw, list(range(len(raw))), registry(), policy) == expected
