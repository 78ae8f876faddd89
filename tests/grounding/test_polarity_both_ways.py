"""A negation must bear on the claim's whole statement, and is checked in both directions.

A negated claim is backed only by a passage sentence negating the same statement (its negated
words and its object), and is capped where the passage states it positively; a positive claim is
capped where the sentence it is about negates it, but not by a negated side detail.
"""

from __future__ import annotations

import pytest

from bot.grounding import GroundingPolicy, verify
from bot.models import Answer, Citation, Source
from bot.support import HARD_CHECK_CAP, LexicalScorer, best_support

SSO = "citecast does not support SAML single sign-on. It supports OIDC login."
LINKS = "Links expire after one hour. Links are not stored on disk."


def _support(passage: str, claim: str) -> tuple[float, str | None]:
    found = best_support(LexicalScorer([passage]), passage, claim)
    return found.score, found.quote


@pytest.mark.parametrize(
    "claim", ["citecast does not support OIDC login.", "OIDC login is not supported."]
)
def test_a_negation_of_another_object_does_not_back_a_negated_claim(claim: str) -> None:
    score, quote = _support(SSO, claim)
    assert score <= HARD_CHECK_CAP
    # quoted where the passage says the opposite
    assert quote == "It supports OIDC login."


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        ("Links are not stored on disk.", "Links are stored on disk."),
        (
            "citecast does not support SAML single sign-on.",
            "citecast supports SAML single sign-on.",
        ),
        (SSO, "citecast supports SAML single sign-on."),
    ],
)
def test_a_positive_claim_its_sentence_negates_is_capped(passage: str, claim: str) -> None:
    assert _support(passage, claim)[0] <= HARD_CHECK_CAP


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        # the negation bears on something the claim does not state
        ("citecast supports SAML, not SCIM.", "citecast supports SAML."),
        (SSO, "citecast supports OIDC login."),
        (SSO, "citecast does not support SAML single sign-on."),
        (SSO, "SAML single sign-on is not supported."),
        ("Links never expire. They work without signing in.", "Links do not expire."),
        # the negated clause is about something else
        (
            "Restart citecast after changing the config, but do not restart it during an ingest.",
            "Restart citecast after changing the config.",
        ),
    ],
)
def test_agreeing_and_unrelated_negations_still_pass(passage: str, claim: str) -> None:
    assert _support(passage, claim)[0] >= 0.35


def test_a_weak_negated_claim_quotes_the_sentence_it_is_about() -> None:
    score, quote = _support(LINKS, "Links do not expire after one hour.")
    assert score <= HARD_CHECK_CAP
    assert quote == "Links expire after one hour."


def test_verify_drops_both_directions_and_keeps_the_true_ones() -> None:
    source = Source(id="sso#1", title="SSO", url="https://docs.example.org/sso", text=SSO)
    answer = Answer(
        "citecast does not support OIDC login [^1]. It does not support SAML single sign-on "
        "[^1]. citecast supports SAML single sign-on [^1].",
        (Citation(n=1, source=source, source_number=1),),
    )
    result = verify(answer, policy=GroundingPolicy(mode="drop"))
    assert result.text == (
        "citecast does not support OIDC login. It does not support SAML single sign-on "
        "[^1]. citecast supports SAML single sign-on."
    )
    assert [d.reason for d in result.dropped] == ["unsupported", "unsupported"]


def test_the_plain_scorer_applies_the_same_polarity() -> None:
    scorer = LexicalScorer([SSO])
    assert scorer.entails(SSO, "citecast does not support OIDC login.") <= HARD_CHECK_CAP
    assert scorer.entails("Links are not stored on disk.", "Links are stored on disk.") <= (
        HARD_CHECK_CAP
    )
    assert scorer.entails("citecast supports SAML, not SCIM.", "citecast supports SAML.") >= 0.35
