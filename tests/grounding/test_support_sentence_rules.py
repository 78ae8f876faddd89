"""Grounding reads a passage's sentences, and a negation's clause, by the rule the answerer and
the claim splitter share (bot.sentence_rules): "Dr. Weber", "J. Smith" and "am 3. Oktober" do
not end a sentence or a clause; "lot B. The garage" does."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import sentence_rules
from bot.grounding import verify
from bot.models import Answer, Citation, Source
from bot.sentence_rules import LONGEST_ABBREVIATION, _scanned_verdict, stop_ends_sentence
from bot.support import HARD_CHECK_CAP, LexicalScorer, best_support, passage_sentences
from bot.text_terms import affirmed_terms, negated_clauses

OTHER = "The office opens at eight."


@pytest.mark.parametrize(
    ("passage", "expected"),
    [
        (
            "Escalations go to Dr. Weber in the IT department. Refunds take 5 days.",
            ("Escalations go to Dr. Weber in the IT department.", "Refunds take 5 days."),
        ),
        (
            "Die nächste Wartung findet am 3. Oktober statt. Das Portal ist ca. 2 Stunden zu.",
            ("Die nächste Wartung findet am 3. Oktober statt.", "Das Portal ist ca. 2 Stunden zu."),
        ),
        (
            "The guide was written by Prof. J. Smith in 2024. It has 40 pages.",
            ("The guide was written by Prof. J. Smith in 2024.", "It has 40 pages."),
        ),
        # a capital letter's full stop before a word that opens sentences ends one, and so does
        # a full stop before a lower-case word (the claim splitter ends a sentence there too)
        (
            "Visitors park in lot B. The garage opens at six. run `citecast ingest`. then wait.",
            (
                "Visitors park in lot B.",
                "The garage opens at six.",
                "run `citecast ingest`.",
                "then wait.",
            ),
        ),
    ],
)
def test_passage_sentences_end_where_claims_end(passage: str, expected: tuple[str, ...]) -> None:
    assert passage_sentences(passage) == expected


@pytest.mark.parametrize(
    "sentence",
    [
        "Escalations go to Dr. J. Weber in the IT department.",
        "Die nächste Wartung findet am 3. Oktober ca. 2 Stunden lang statt.",
    ],
)
def test_the_quote_is_the_whole_sentence_and_backs_it_fully(sentence: str) -> None:
    # two cuts in one sentence left no window of one or two pieces holding all of it: the
    # quote was "Escalations go to Dr." and the score the whole passage's discounted 0.9
    passage = f"{sentence} Refunds take five days."
    support = best_support(LexicalScorer([passage, OTHER]), passage, sentence)
    assert support == type(support)(1.0, sentence)


def test_a_cited_claim_quotes_the_sentence_with_the_title() -> None:
    source = Source(
        id="escalation#1",
        title="Escalation",
        url="https://docs.example.org/escalation.html",
        text="Escalations go to Dr. J. Weber in the IT department. The phone is staffed.",
    )
    answer = Answer(
        "Escalations go to Dr. J. Weber in the IT department [^1].",
        (Citation(n=1, source=source, source_number=1),),
    )
    (citation,) = verify(answer).citations
    assert citation.quote == "Escalations go to Dr. J. Weber in the IT department."


def test_a_negation_bears_on_its_clause_past_a_title() -> None:
    passage = "Invoices and travel expenses of Prof. Weber are never paid by card."
    assert negated_clauses(passage) == (passage.removesuffix("."),)
    # the negated clause covers the claim, so the passage contradicts it (it was the clause
    # "Weber are never paid by card", too little of the claim to count, and the claim scored
    # 0.71 against the sentence that says the opposite)
    claim = "Invoices and travel expenses of Prof. Weber are paid by card."
    scorer = LexicalScorer([passage, OTHER])
    assert best_support(scorer, passage, claim).score <= HARD_CHECK_CAP
    assert scorer.entails(passage, claim) <= HARD_CHECK_CAP


def test_words_a_sentence_also_states_after_a_title_are_affirmed() -> None:
    # "refunds" is negated once and stated once in the same sentence: the sentence states it
    passage = "Team leads do not approve refunds; only Dr. Weber approves refunds."
    assert {"approv", "refund"} <= affirmed_terms(passage)
    claim = "Dr. Weber approves refunds."
    assert LexicalScorer([passage, OTHER]).entails(passage, claim) == 1.0
    denying = f"{passage} Guests do not get refunds."
    support = best_support(LexicalScorer([denying, OTHER]), denying, claim)
    assert support.score == 1.0
    assert support.quote == passage


def test_no_abbreviation_is_longer_than_the_quick_check_asks_about() -> None:
    words = [*sentence_rules._WORDS, *sentence_rules._TITLES, *sentence_rules._NUMBERED]
    words += [part for parts in sentence_rules._DOTTED for part in parts.split("|")]
    assert max(len(word) for word in words) <= LONGEST_ABBREVIATION


_PIECES = ["Dr.", "ca.", "3.", "12.", "123.", "Oktober", "B.", "J.", "z. B.", "etc.", "approx."]
_PIECES += ["No.", "5", "The", "lot", "Smith", "citation.", "Weber.", "department.", "v1.2."]


_LISTED = sorted(sentence_rules._LAST_WORDS)
_PIECES += [f"{word}." for word in _LISTED] + [f"{word.upper()}." for word in _LISTED]
_PIECES += ["e.g.", "z.B.", "3. Mai", "x.ca.", "(ca.)", "Nr. 5", "1234.", "Ä.", "ß."]


@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=10))
def test_the_quick_check_decides_as_the_rule(pieces: list[str]) -> None:
    text = " ".join(pieces)
    for mark in (i for i, char in enumerate(text) if char == "."):
        if text[mark + 1 : mark + 2].isspace():
            assert stop_ends_sentence(text, mark) is _scanned_verdict(text, mark)
