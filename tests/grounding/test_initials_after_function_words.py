"""An initial after a word that introduces a person ("written by J. Smith", "von J. Weber") is
part of a name, not a sentence end, for the answerer, the claim splitter and grounding alike
(bot.sentence_rules); a capital after a lower-case word that introduces no person ("lot B."),
or between labels ("lots A and B."), still ends its sentence.

Found on QA: `citecast ask "Who wrote the annual zebra report?"` answered "… written by J [1]."
(the sentence was cut after "J.", so the one fact asked for was lost)."""

from __future__ import annotations

import pytest

from bot.assistant.extractive_sentences import sentences_of
from bot.claims import claims
from bot.support import passage_sentences

NEXT = "It covers every region."


@pytest.mark.parametrize(
    "sentence",
    [
        "The annual report was written by J. Smith in 2024.",
        "The migration guide was reviewed by A. Jones last week.",
    ],
)
def test_an_initial_after_a_lower_case_word_ends_no_sentence(sentence: str) -> None:
    assert sentences_of(f"{sentence} {NEXT}") == [sentence, NEXT]


@pytest.mark.parametrize(
    "sentence",
    [
        "Send the signed form to A. Jones before Friday.",
        "Questions about the budget go to the office of K. Nowak first.",
        "The escalation was handled together with M. Garcia on call.",
        "Reports are signed by J. Smith and A. Jones every month.",
        "Please cc J. Smith on every refund request.",
        "Der Bericht wurde von J. Weber im Mai geschrieben.",
        "Le rapport a été rédigé par J. Dupont en mai.",
        "El informe fue escrito por J. García en mayo.",
        "Raport został napisany przez J. Kowalskiego w maju.",
        "The handbook (written by J. Smith) lists every region.",
    ],
)
def test_passages_and_answers_keep_the_name_whole(sentence: str) -> None:
    assert sentences_of(f"{sentence} {NEXT}") == [sentence, NEXT]
    assert passage_sentences(f"{sentence} {NEXT}") == (sentence, NEXT)


def test_a_claim_keeps_the_name_whole() -> None:
    answer = "The annual report was written by J. Smith in 2024 [^1]. It covers every region [^2]."
    assert [(claim.sentence, claim.numbers) for claim in claims(answer)] == [
        ("The annual report was written by J. Smith in 2024.", (1,)),
        ("It covers every region.", (2,)),
    ]


@pytest.mark.parametrize(
    ("paragraph", "expected"),
    [
        # a lower-case word that introduces no person: "B." is a label ending its sentence
        (
            "Visitors park in lot B. Visitors from abroad get a day ticket.",
            ["Visitors park in lot B.", "Visitors from abroad get a day ticket."],
        ),
        # "The" opens sentences, whatever comes before the capital
        (
            "The parcel was sent to B. The courier signed for it at noon.",
            ["The parcel was sent to B.", "The courier signed for it at noon."],
        ),
        # a capital after "and" or "to" between single capitals is a label, not an initial
        (
            "Visitors may park in lots A and B. Visitors from abroad get a day ticket.",
            ["Visitors may park in lots A and B.", "Visitors from abroad get a day ticket."],
        ),
        (
            "The shuttle runs from A to B. Visitors from abroad ride for free.",
            ["The shuttle runs from A to B.", "Visitors from abroad ride for free."],
        ),
        (
            "Deliveries go to docks A, B and C. Visitors from abroad use gate D.",
            ["Deliveries go to docks A, B and C.", "Visitors from abroad use gate D."],
        ),
        # unchanged, and still wrong: a capitalised word before the capital reads as a name
        (
            "Park in Building C. Visitors from abroad get a day ticket.",
            ["Park in Building C. Visitors from abroad get a day ticket."],
        ),
    ],
)
def test_a_label_still_ends_its_sentence(paragraph: str, expected: list[str]) -> None:
    assert sentences_of(paragraph) == expected
