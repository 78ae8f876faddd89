"""The choice of the sentences an extractive answer quotes, in its own module
(bot.assistant.extractive_choice), as the backend (bot.assistant.extractive) uses it."""

from __future__ import annotations

from bot.assistant import extractive
from bot.assistant.extractive_candidates import sentence_candidates
from bot.assistant.extractive_choice import choose_sentences
from bot.knowledge.terms import query_terms
from bot.models import Source

GUIDE = Source(
    id="guide",
    kind="passage",
    text="Install citecast with pip install citecast. The weather is nice today.",
)
MAC = Source(
    id="mac",
    kind="passage",
    text="Read the guide to install citecast. You can install citecast on macOS too.",
)


def chosen(question: str, limit: int) -> list[tuple[str, str]]:
    candidates = sentence_candidates([GUIDE, MAC])
    return [
        (c.source.id, c.text) for c in choose_sentences(query_terms(question), candidates, limit)
    ]


def test_the_best_sentences_up_to_the_limit_best_passage_first() -> None:
    assert chosen("How do I install citecast?", 1) == [
        ("guide", "Install citecast with pip install citecast.")
    ]
    # a sentence that only points at the guide ("Read the guide to …") is not quoted
    assert chosen("How do I install citecast?", 4) == [
        ("guide", "Install citecast with pip install citecast."),
        ("mac", "You can install citecast on macOS too."),
    ]


def test_nothing_to_choose_from() -> None:
    assert choose_sentences([], sentence_candidates([GUIDE]), 3) == []
    assert choose_sentences(["install"], [], 3) == []


def test_the_backend_answers_with_the_same_choice() -> None:
    assert extractive.choose_sentences is choose_sentences
