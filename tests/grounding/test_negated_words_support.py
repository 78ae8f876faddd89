"""Words a passage only negates do not back a positive claim.

"No system database or search server is needed" holds "database", "server" and "needed", and
"citecast needs a PostgreSQL database server" scored 0.39 against it, above the default
threshold: the eval's known false positive. A list before a negation is part of its clause, so
"Auto-replies and bounces are answered" is capped by "Auto-replies, bounces, bulk mail and
mailing lists are never answered".
"""

from __future__ import annotations

import pytest

from bot.support import HARD_CHECK_CAP, LexicalScorer, best_support
from bot.text_terms import affirmed_terms, negated_clauses, term_set

THRESHOLD = 0.35
INSTALL = (
    "citecast needs Python 3.11 or newer. Install citecast with `pip install citecast` inside a "
    "virtual environment."
)
LINUX = (
    "On Debian and Ubuntu, install the `python3-venv` package first so that `python3 -m venv` "
    "works. No system database or search server is needed: the knowledge index is a single "
    "SQLite file."
)
MAIL = (
    "Auto-replies, bounces, bulk mail and mailing lists are never answered, so two robots cannot "
    "answer each other forever. Each sender gets at most `email.rate_limit_per_hour` answers an "
    "hour."
)
MODEL = (
    "citecast answers without any language model by default: its built-in answerer quotes the "
    "best sentences of the knowledge base and cites each one. To use a large language model "
    "(LLM) instead, set `assistant.backend: openai`."
)


def _score(passage: str, claim: str, *evidence: str) -> float:
    return best_support(LexicalScorer([passage, *evidence]), passage, claim).score


def test_the_words_right_after_a_negation_are_not_affirmed() -> None:
    sentence = "No system database or search server is needed: the index is a single SQLite file."
    assert term_set(sentence) - affirmed_terms(sentence) == {
        "system",
        "databas",
        "search",
        "server",
    }
    # stated elsewhere in the same sentence: still affirmed
    assert "restart" in affirmed_terms("Restart after a change, but do not restart during ingest.")
    # the words before a negation are its subject, which the sentence states
    assert "mention" in affirmed_terms(
        "Every message is sent with allowed mentions that ping nobody."
    )
    # a term one sentence only negates is not put back by the next one
    assert "answer" not in affirmed_terms(MAIL)


@pytest.mark.parametrize(
    "claim",
    [
        "citecast needs a PostgreSQL database server.",
        "You need a search server such as Elasticsearch.",
    ],
)
def test_a_claim_built_from_negated_words_is_not_supported(claim: str) -> None:
    assert _score(LINUX, claim, INSTALL) < THRESHOLD


def test_a_list_before_a_negation_is_part_of_its_clause() -> None:
    assert negated_clauses(MAIL)[0].startswith("Auto-replies, bounces, bulk mail")
    # a "but" still ends the clause, and a long clause before a comma is not a list item
    assert negated_clauses("Restart often, but do not restart during an ingest.") == (
        "do not restart during an ingest",
    )
    assert negated_clauses("Restart after every change, and do not restart during ingest.") == (
        "and do not restart during ingest",
    )
    assert _score(MAIL, "Auto-replies and bounces are answered.") <= HARD_CHECK_CAP
    assert _score(MAIL, "citecast answers mailing lists and bulk mail.") < THRESHOLD


def test_a_claim_a_negated_sentence_contradicts_scores_below_the_threshold() -> None:
    assert _score(MODEL, "citecast needs a large language model to answer questions.") < THRESHOLD


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (LINUX, "The knowledge index is a single SQLite file."),
        (LINUX, "citecast needs no database server: the index is a single SQLite file."),
        (LINUX, "On Debian, install the python3-venv package first."),
        (MAIL, "citecast does not answer auto-replies, bounces or mailing lists."),
        (MAIL, "Each sender gets at most `email.rate_limit_per_hour` answers an hour."),
        (MODEL, "By default citecast answers without a language model."),
        (MODEL, "To use an LLM instead, set `assistant.backend: openai`."),
        (
            "Every message is sent with allowed mentions that ping nobody.",
            "Messages are sent with allowed mentions.",
        ),
        (
            "Links expire after one hour and work without signing in.",
            "Links expire after one hour.",
        ),
        (
            "Replies that were not delivered stay in the outbox and are sent again after a "
            "restart.",
            "Replies are sent again after a restart.",
        ),
    ],
)
def test_what_the_passage_states_keeps_its_support(passage: str, claim: str) -> None:
    assert _score(passage, claim, INSTALL) >= 0.6
