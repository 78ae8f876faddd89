"""A repetition count ("answered twice") must agree with the passage's count of the same word.

"once" and "twice" are no numbers to the number check, and "Slack events that arrive twice are
answered twice" held every content word of the outbox passage ("arrives twice is answered
once"), so it scored 1.0: the eval's known false positive.
"""

from __future__ import annotations

import pytest

from bot.support import HARD_CHECK_CAP, LexicalScorer, best_support, hard_checks_pass
from bot.text_counts import counts, counts_agree

OUTBOX = (
    "Every reply is written to the outbox in the SQLite store before it is sent, and removed "
    "once the platform confirms delivery. The outbox is also what makes delivery idempotent: a "
    "Slack event or an email that arrives twice is answered once."
)
RESTORE = "Test a restore at least once a quarter by starting citecast on a copy of the backup."


def _score(passage: str, claim: str) -> float:
    return best_support(LexicalScorer([passage]), passage, claim).score


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Slack events that arrive twice are answered twice.", {("arriv", 2), ("answer", 2)}),
        # the conjunction "once the platform confirms" counts nothing
        (OUTBOX, {("arriv", 2), ("answer", 1)}),
        (RESTORE, {("restor", 1)}),
        ("Failed sends are retried up to 5 times.", {("retry", 5)}),
        ("Failed sends are retried three times.", {("retry", 3)}),
        ("It is retried thrice.", {("retry", 3)}),
        # "at once" is no count, and neither is a count under a negation
        ("All replies are sent at once.", set()),
        ("A duplicate event is never answered twice.", set()),
        ("Once the index is built, answers cite it.", set()),
    ],
)
def test_counts_are_read_with_the_word_they_count(
    text: str, expected: set[tuple[str, int]]
) -> None:
    assert counts(text) == expected


def test_a_count_the_passage_gives_differently_caps_the_claim() -> None:
    claim = "Slack events that arrive twice are answered twice."
    assert not counts_agree(OUTBOX, claim)
    assert not hard_checks_pass(OUTBOX, claim)
    assert _score(OUTBOX, claim) <= HARD_CHECK_CAP
    assert LexicalScorer([OUTBOX]).entails(OUTBOX, claim) <= HARD_CHECK_CAP


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (OUTBOX, "A Slack event that arrives twice is answered once."),
        (OUTBOX, "Delivery is idempotent: an email that arrives twice is answered only once."),
        # the passage does not count the word: left to the other checks
        (OUTBOX, "A reply is removed once the platform confirms delivery."),
        (RESTORE, "Test a restore at least once a quarter."),
    ],
)
def test_a_count_that_agrees_keeps_its_support(passage: str, claim: str) -> None:
    assert counts_agree(passage, claim)
    assert _score(passage, claim) >= 0.8


def test_a_count_of_another_word_is_no_conflict() -> None:
    # the passage counts "arrives", the claim counts "retried": nothing to compare
    assert counts_agree(OUTBOX, "A failed reply is retried twice.")
