"""A sentence that shares only a compound's head noun with the question ("The retry policy …"
for "What is your refund policy?") is another thing of the kind: it is not quoted beside a
sentence of another passage about the thing asked for ("Hotel costs are refunded …")."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot.assistant.extractive_candidates import sentence_candidates
from bot.assistant.extractive_choice import choose_sentences
from bot.assistant.extractive_heads import Compound, question_compounds
from bot.cli import main
from bot.knowledge.terms import query_terms
from bot.models import Source

TRAVEL = "# Travel expenses\n\nHotel costs are refunded within ten days of the receipt.\n"
DELIVERY = """\
# Delivery

## Retry policy

The retry policy decides what happens when a channel fails to deliver a reply.
A failed reply waits one minute and is sent again.
After five attempts the reply stays in the outbox.
"""
HOTEL = "Hotel costs are refunded"


@pytest.fixture
def ask(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Callable[[str], str]:
    """Index a travel page and a delivery page; return a function that asks a question."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "travel.md").write_text(TRAVEL, encoding="utf-8")
    (docs / "delivery.md").write_text(DELIVERY, encoding="utf-8")
    assert main(["ingest", "docs"]) == 0
    capsys.readouterr()

    def answer(question: str) -> str:
        assert main(["ask", question]) == 0
        return capsys.readouterr().out.split("\n\nSources:\n")[0]

    return answer


@pytest.mark.parametrize(
    "question", ["What is your refund policy?", "What's the refund policy?", "refund policy"]
)
def test_another_policy_is_not_quoted_beside_the_one_asked_for(
    ask: Callable[[str], str], question: str
) -> None:
    answer = ask(question)
    assert HOTEL in answer
    assert "retry" not in answer and "outbox" not in answer and "failed reply" not in answer


def test_the_policy_asked_for_is_still_answered(ask: Callable[[str], str]) -> None:
    answer = ask("What is the retry policy?")
    assert "The retry policy decides" in answer and "five attempts" in answer
    assert HOTEL not in answer


@pytest.mark.parametrize(
    ("question", "compounds"),
    [
        ("What is your refund policy?", [Compound("policy", frozenset({"refund"}))]),
        ("refund policy", [Compound("policy", frozenset({"refund"}))]),
        (
            "How long does the hotel refund policy take?",
            [Compound("policy", frozenset({"hotel", "refund"}))],
        ),
        ("Do I need approval for holidays?", []),
        ("How do I install citecast?", []),
        ("Is every policy reviewed?", []),
        ("What is the policy?", []),
    ],
)
def test_a_compound_is_a_head_noun_after_the_words_that_say_which(
    question: str, compounds: list[Compound]
) -> None:
    assert question_compounds(question) == compounds


HOTEL_COSTS = "Hotel costs are refunded in ten days."
REFUND = Source(
    id="travel",
    kind="passage",
    section="Travel",
    text=f"{HOTEL_COSTS} Taxi fares are refunded too.",
)


def _kept(other: Source) -> list[str]:
    """The sentences chosen for "What is your refund policy?" from the hotel passage and
    ``other``."""
    question = "What is your refund policy?"
    candidates = sentence_candidates([other, REFUND])
    picked = choose_sentences(
        query_terms(question), candidates, 4, compounds=question_compounds(question)
    )
    return [c.text for c in picked]


def test_a_heading_of_another_policy_leaves_its_sentences_out() -> None:
    retry = Source(
        id="retry", kind="passage", section="Delivery > Retry policy", text="Replies wait."
    )
    kept = _kept(retry)
    assert HOTEL_COSTS in kept and retry.text not in kept


@pytest.mark.parametrize(
    "other",
    [
        # a policy no other word says which of: the policy the question may be asking about
        Source(id="p", kind="passage", section="Handbook > Policy", text="Replies wait."),
        Source(id="p", kind="passage", section="Handbook", text="Our policy is to wait."),
        # one said "retry policy" and once on its own
        Source(
            id="p",
            kind="passage",
            section="Retry policy",
            text="Every reply follows the policy: wait a minute.",
        ),
    ],
)
def test_a_policy_not_named_as_another_is_not_left_out(other: Source) -> None:
    assert other.text in _kept(other)
