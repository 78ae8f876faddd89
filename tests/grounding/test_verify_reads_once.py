"""Verify reads each text once, and reads every text it is given.

The lexical scorer keeps what it reads from a passage (sentences, windows, numbers) for the turn,
so a passage cited by many claims is read once; ``verify`` splits the answer into sentences once
for its claims and its uncited sentences. And a number word the case-blind pattern matched
through a letter that only folds to an ASCII one ("ſix") raised a KeyError, failing the whole
answer.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

import bot.claims
import bot.support
from bot.grounding import GroundingPolicy, verify
from bot.models import Source
from bot.registry import SourceRegistry
from bot.resolver import resolve
from bot.support import HARD_CHECK_CAP, LexicalScorer, best_support
from bot.text_terms import numbers


@pytest.mark.parametrize("text", ["It retries ſix times in fıve hours.", "tWENTY-ſeven days"])
def test_a_number_word_with_a_letter_that_only_folds_to_ascii_is_no_number(text: str) -> None:
    # the case-blind pattern matched "ſix" and reading it raised a KeyError, so verify failed
    # on any answer or passage holding one
    assert numbers(text) == frozenset()
    registry = SourceRegistry()
    registry.register_all([Source(id="s", title="S", text=text)])
    answer = resolve(f"{text.rstrip('.')} [1].", registry)
    checked = verify(answer, registry, GroundingPolicy())
    assert checked.citations[0].support == 1.0


def _counting(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[str]:
    """Record each call of ``module.name`` (its first argument) and let it run."""
    calls: list[str] = []
    real: Callable[[str], object] = getattr(module, name)

    def spy(text: str) -> object:
        calls.append(text)
        return real(text)

    monkeypatch.setattr(module, name, spy)
    return calls


PASSAGE = (
    "Failed sends are retried up to 5 times with exponential backoff. "
    "The outbox keeps messages for 7 days. Links expire after one hour."
)


def test_the_lexical_scorer_reads_a_passage_once_however_many_claims_cite_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scorer = LexicalScorer([PASSAGE])
    read = _counting(monkeypatch, bot.support, "passage_sentences")
    claims_cited = [
        "Failed sends are retried up to 5 times",
        "The outbox keeps messages for 7 days",
        "Links expire after two hours",
    ]
    scores = [best_support(scorer, PASSAGE, claim).score for claim in claims_cited]
    assert read == [PASSAGE]
    assert scores[:2] == [1.0, 1.0] and scores[2] <= HARD_CHECK_CAP


def test_verify_reads_the_answer_into_sentences_once(monkeypatch: pytest.MonkeyPatch) -> None:
    source = Source(id="outbox", title="Outbox", text=PASSAGE)
    registry = SourceRegistry()
    registry.register_all([source])
    answer = resolve("The outbox keeps messages for 7 days [1]. It has 4 queues.", registry)
    read = _counting(monkeypatch, bot.claims, "_raw_sentences")
    checked = verify(answer, registry, GroundingPolicy())
    assert read == [answer.text]
    assert checked.uncited_claims == ("It has 4 queues.",)
    assert checked.citations[0].support == 1.0
