"""Property tests of ``ResolvePolicy.model_cites`` (hypothesis): stream == batch for any split,
with the registry empty or not, and no invented citation left in a model's answer."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.markers import Grammar, find_markers
from bot.models import Answer, Source
from bot.registry import SourceRegistry
from bot.resolver import COALESCE, ResolvePolicy, resolve
from tests.core.resolver_splits import streamed_at
from tests.core.test_resolver_properties import FRAGMENTS

# the number forms model_cites reads, naming sources that exist (1, 2) or not (9)
MODEL_FRAGMENTS = [
    *FRAGMENTS,
    "(Source 1)",
    "(Source 9)",
    "(sources 1, 2)",
    "<sup>1</sup>",
    "<sup>9</sup>",
    "m<sup>2</sup>",
    "[99]",
    "[0]",
    "a[0]",
    "Sources:\n- [9] Blog\n",
    "Sources:\n- [1] guide\n- [7] faq",
    "Sources: [3], [4]",
    "- [8] Made up\n",
]
texts = st.lists(st.sampled_from(MODEL_FRAGMENTS), max_size=40).map("".join)
policies = st.builds(
    ResolvePolicy, model_cites=st.just(True), strip_model_source_lists=st.booleans()
)
coalesces = st.sampled_from([0, 1, 3, 16, COALESCE])
# what the output is read with: bare groups are markers (a superscript is left out: one the
# writer put after "]" is text, and stays text when the marker before it is removed)
OUTPUT_GRAMMAR = Grammar(bare_numbers=True)


def registry(sources: bool) -> SourceRegistry:
    registry = SourceRegistry(["public"], secret=b"no-sources-props")
    if sources:
        registry.register_all([Source("a", title="Install guide"), Source("b", title="Manual")])
    return registry


def streamed(
    raw: str, cuts: list[int], policy: ResolvePolicy, sources: bool, coalesce: int
) -> Answer:
    return streamed_at(raw, cuts, registry(sources), policy, coalesce)


@given(
    texts,
    st.lists(st.integers(min_value=0, max_value=10_000), max_size=12),
    policies,
    st.booleans(),
    coalesces,
)
def test_stream_equals_resolve_for_a_model_answer(
    raw: str, cuts: list[int], policy: ResolvePolicy, sources: bool, coalesce: int
) -> None:
    expected = resolve(raw, registry(sources), policy)
    assert streamed(raw, cuts, policy, sources, coalesce) == expected


@given(texts)
def test_a_model_answer_with_no_sources_keeps_no_citation(raw: str) -> None:
    answer = resolve(raw, registry(False), ResolvePolicy(model_cites=True))
    assert answer.citations == ()
    assert find_markers(answer.text, OUTPUT_GRAMMAR) == []
