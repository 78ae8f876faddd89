"""A claim that negates what its source states is weak, not fully supported."""

from __future__ import annotations

import pytest

from bot.grounding import GroundingPolicy, verify
from bot.models import Source
from bot.support import HARD_CHECK_CAP, LexicalScorer, best_support
from tests.grounding.cited_answers import cited_answer

SSO = Source(
    id="security#2",
    title="Security model",
    url="https://docs.example.org/security.html",
    text=(
        "citecast supports SAML single sign-on for the web chat. Setup takes no more than ten "
        "minutes."
    ),
)
LINUX = Source(
    id="install#1",
    title="Install",
    url="https://docs.example.org/install.html",
    text="citecast runs on Linux, macOS and Windows.",
)


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (SSO.text or "", "citecast does not support SAML single sign-on."),
        (SSO.text or "", "citecast doesn't support SAML single sign-on for the web chat."),
        ("Share links can be reused many times.", "Share links cannot be reused."),
        ("The outbox always retries failed sends.", "The outbox never retries failed sends."),
        ("Messages ping everyone in the channel.", "Messages ping nobody in the channel."),
    ],
)
def test_a_negated_claim_is_capped_against_a_plain_statement(passage: str, claim: str) -> None:
    # every content word matched, so "does not support" scored 1.0 against "supports"
    scorer = LexicalScorer([passage, "The chat widget has a dark theme."])
    assert best_support(scorer, passage, claim).score <= HARD_CHECK_CAP
    assert scorer.entails(passage, claim) <= HARD_CHECK_CAP


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "Socket Mode opens an outgoing WebSocket, so no public URL is needed.",
            "With Socket Mode no public URL is needed.",
        ),
        ("The index needs no backup, because ingest rebuilds it.", "The index needs no backup."),
        ("Messages are sent with mentions that ping nobody.", "Nobody is pinged by messages."),
        ("It supports SAML, but not SCIM.", "It supports SAML."),
        # the negated part is about something this passage does not mention at all
        ("Long answers are split at paragraph breaks.", "Long answers are split, never cut."),
        # not negations
        ("Slack limits a section to 3,000 characters.", "No, Slack limits a section to 3,000."),
        ("citecast answers on Slack and Discord.", "It answers not only on Slack but Discord."),
    ],
)
def test_a_negation_the_passage_shares_or_does_not_address_still_passes(
    passage: str, claim: str
) -> None:
    scorer = LexicalScorer([passage, "The chat widget has a dark theme."])
    assert best_support(scorer, passage, claim).score >= 0.35


def test_drop_removes_the_negated_citation_and_renumbers_the_rest() -> None:
    answer = cited_answer(
        "citecast does not support SAML single sign-on [^1]. It runs on Linux and macOS [^2].",
        SSO,
        LINUX,
    )
    result = verify(answer, None, GroundingPolicy(mode="drop"))
    assert result.text == (
        "citecast does not support SAML single sign-on. It runs on Linux and macOS [^1]."
    )
    assert [c.source.id for c in result.citations] == ["install#1"]
    assert [(d.marker, d.reason) for d in result.dropped] == [("[^1]", "unsupported")]


def test_annotate_marks_only_the_negated_citation_of_a_sentence_weak() -> None:
    # two citations in one sentence: each is checked against its own clause
    answer = cited_answer(
        "citecast runs on Linux and macOS [^1], but it does not support SAML single sign-on "
        "for the web chat [^2].",
        LINUX,
        SSO,
    )
    result = verify(answer, None, GroundingPolicy(mode="annotate"))
    support = {c.source.id: c.support for c in result.citations}
    assert support["security#2"] is not None and support["security#2"] <= HARD_CHECK_CAP
    assert support["install#1"] is not None and support["install#1"] >= 0.35
