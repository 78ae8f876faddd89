"""A negated claim needs a passage that negates the same statement, not any "without"."""

from __future__ import annotations

import pytest

from bot.grounding import verify
from bot.models import Answer, Citation, Source
from bot.support import HARD_CHECK_CAP, LexicalScorer, best_support
from bot.text_terms import negated_terms

EXPIRY = (
    "Download links expire after one hour by default, and anyone with the link can download "
    "the file without signing in."
)
NEVER = "Download links never expire. They work without signing in."


def _score(passage: str, claim: str) -> float:
    return best_support(LexicalScorer([passage]), passage, claim).score


def test_a_without_elsewhere_does_not_back_a_negated_claim() -> None:
    assert _score(EXPIRY, "Download links do not expire after one hour.") <= HARD_CHECK_CAP
    source = Source(id="s#1", title="Security", url="https://docs.example.org/s", text=EXPIRY)
    answer = Answer(
        "Download links do not expire after one hour [^1].",
        (Citation(n=1, source=source, source_number=1),),
    )
    support = verify(answer).citations[0].support
    assert support is not None and support <= HARD_CHECK_CAP


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (NEVER, "Download links do not expire."),
        (EXPIRY, "You can download the file without signing in."),
        (EXPIRY, "You do not need to sign in to download the file."),
        (
            "citecast cannot send files larger than 10 MB.",
            "citecast does not send files over 10 MB.",
        ),
        ("citecast does not support SAML.", "SAML is not supported."),
        ("citecast supports SCIM. It does not support SAML.", "citecast does not support SAML."),
    ],
)
def test_a_correct_negated_claim_still_passes(passage: str, claim: str) -> None:
    assert _score(passage, claim) >= 0.35


def test_negated_terms_stay_in_their_clause() -> None:
    # two words before "without" and what follows it, not "expire" in the clause before
    assert negated_terms(EXPIRY) == {"download", "file", "sign"}
    assert negated_terms("Links never expire, and SAML is not supported.") == {
        "link",
        "expir",
        "saml",
        "support",
    }


def test_a_negation_bears_on_its_own_clause_in_the_claim_too() -> None:
    passage = (
        "Watch three figures: the replies waiting in the outbox, the share of answers that cite "
        "nothing, and the time to first token of streamed answers."
    )
    claim = "Watch the outbox size, the share of answers that cite nothing, and time to first token"
    assert _score(passage, claim) >= 0.35
