"""The sample products table through the built-in answerer and grounding: a cost answer's
record citation quotes the price it states, and its claim keeps the column name whole."""

from __future__ import annotations

import pytest

from bot.assistant.assistant import Assistant
from bot.config import Settings
from bot.grounding import GroundingPolicy, verify
from bot.knowledge import KnowledgeIndex
from bot.models import Answer
from bot.registry import SourceRegistry

PUBLIC = frozenset({"public"})
PRICES = {
    "Community": "0",
    "Team": "19",
    "Business": "49",
    "Enterprise": "contact sales",
}


@pytest.fixture
def assistant(kb_settings: Settings, kb_index: KnowledgeIndex) -> Assistant:
    # grounding as `citecast ask` installs it (the shared settings turn it off)
    def ground(answer: Answer, registry: SourceRegistry) -> Answer:
        return verify(answer, registry, GroundingPolicy())

    return Assistant(kb_settings, kb_index, postprocess=[ground])


@pytest.mark.parametrize("plan", sorted(PRICES))
async def test_a_cost_answer_quotes_the_price(assistant: Assistant, plan: str) -> None:
    answer = await assistant.answer(f"What does the {plan} plan cost?", PUBLIC)
    [citation] = [c for c in answer.citations if c.source.kind == "record"]
    assert citation.quote is not None and f"price_usd: {PRICES[plan]}" in citation.quote
    # the answer's line states every shown column, and so does its quote
    for column, value in (citation.source.columns or {}).items():
        assert f"{column}: {value}" in citation.quote
    assert citation.claim is not None and "price_usd" in citation.claim
    assert citation.support is not None and citation.support >= 0.85
