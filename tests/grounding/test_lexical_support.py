"""The offline lexical support scorer: coverage weighted by rarity, hard number/quote checks."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bot.errors import ConfigError
from bot.support import (
    HARD_CHECK_CAP,
    LexicalScorer,
    best_support,
    hard_checks_pass,
    scorer_factory,
)
from bot.text_terms import content_terms, numbers

PASSAGE = (
    "citecast keeps every reply in a durable outbox. Failed sends are retried up to 5 times "
    "with exponential backoff, starting at 30 seconds. The outbox lives in SQLite."
)


def test_terms_are_stemmed_and_stop_words_dropped() -> None:
    assert content_terms("The bot installs and is installing the packages") == [
        "bot",
        "install",
        "install",
        "packag",
    ]


def test_numbers_keep_units_and_normalise_thousands() -> None:
    assert numbers("Up to 3,000 characters and 30 seconds, 2.5%") == {
        "3000 character",
        "30 second",
        "2.5 %",
    }


def test_supported_claim_scores_high_and_quotes_the_right_sentence() -> None:
    scorer = LexicalScorer([PASSAGE, "Slack limits section text to 3,000 characters."])
    support = best_support(scorer, PASSAGE, "Failed sends are retried 5 times with backoff")
    assert support.score >= 0.8
    assert support.quote is not None and support.quote.startswith("Failed sends are retried")


def test_unrelated_claim_scores_low() -> None:
    scorer = LexicalScorer([PASSAGE])
    support = best_support(scorer, PASSAGE, "Discord embeds show a colour bar for each guild")
    assert support.score < 0.2


@pytest.mark.parametrize(
    ("claim", "passes"),
    [
        ("Failed sends are retried up to 5 times", True),
        ("Failed sends are retried up to 7 times", False),
        ("Backoff starts at 30 seconds", True),
        ("Backoff starts at 30 s", True),
        ("Backoff starts at 30 minutes", False),
        ('The outbox is "durable"', True),
        ('The outbox is "write-ahead logged"', False),
    ],
)
def test_hard_checks(claim: str, passes: bool) -> None:
    assert hard_checks_pass(PASSAGE, claim) is passes


def test_wrong_number_caps_the_score_even_with_full_overlap() -> None:
    scorer = LexicalScorer([PASSAGE])
    assert scorer.entails(PASSAGE, "Failed sends are retried up to 9 times") <= HARD_CHECK_CAP


def test_rare_words_weigh_more_than_common_ones() -> None:
    evidence = [f"citecast document number {i} about setup" for i in range(20)] + [PASSAGE]
    scorer = LexicalScorer(evidence)
    assert scorer.weight("outbox") > scorer.weight("citecast")


def test_factory_loads_lexical_and_rejects_bad_names() -> None:
    assert scorer_factory("lexical") is LexicalScorer
    with pytest.raises(ConfigError, match=r"grounding\.backend"):
        scorer_factory("no-colon-here")
    with pytest.raises(ConfigError, match="cannot load"):
        scorer_factory("citecast_missing_module:factory")


@pytest.mark.parametrize(
    ("backend", "says"),
    [
        # a callable that takes no evidence list
        ("os:getcwd", r"failed when called with a list of evidence texts: TypeError"),
        # a callable whose result has no entails()
        ("builtins:list", r"returned a list, which has no entails\(premise, hypothesis\)"),
    ],
)
def test_a_factory_that_cannot_score_is_refused_at_load(backend: str, says: str) -> None:
    with pytest.raises(ConfigError, match=rf"^grounding\.backend: '{backend}' {says}"):
        scorer_factory(backend)


def test_plugged_in_factory_is_used() -> None:
    factory = scorer_factory("tests.grounding.plugin_scorer:make_scorer")
    scorer = factory(["anything"])
    assert scorer.entails("premise", "hypothesis") == 0.5


@given(st.text(max_size=300), st.text(max_size=200))
@example(premise="00?\x1f0", claim="00:0")  # sentences split at "\x1f", quoted with a space
@example(premise="One.\tTwo three.", claim="one two three")
def test_scores_stay_in_range(premise: str, claim: str) -> None:
    scorer = LexicalScorer([premise])
    support = best_support(scorer, premise, claim)
    assert 0.0 <= support.score <= 1.0
    if support.quote is not None:
        # the quote is the passage's own text, its whitespace runs (a line break, a tab, "\x1f"
        # between two sentences) written as one space
        assert " ".join(support.quote.split()) in " ".join(premise.split())
