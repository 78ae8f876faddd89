"""The speed-ups of the verify path read less, and read it the same way.

Each shortcut is checked against what it replaces: the ASCII tokeniser against the search
index's ``words``, a skipped pattern (``may_hold``) against the pattern itself, the early end of
``best_window`` against the full search, the hard checks on facts read once against the checks
as they were, and the shared reading of an answer against ``claims`` and ``sentences`` read
apart. ``test_golden_verify`` compares whole outputs with those of the code before them.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bot.claims
import bot.support
from bot.claims import _plain, _raw_sentences, claims, read_answer, sentences
from bot.knowledge.terms import words
from bot.support import best_window
from bot.support_checks import (
    ClaimFacts,
    PremiseFacts,
    _units_by_value,
    facts_agree,
    hard_checks_pass,
)
from bot.text_counts import _COUNT_HINTS, _COUNT_RE, counts
from bot.text_numbers import _NUMBER_WORDS, _WORD_NUMBER_RE
from bot.text_shortcuts import fast_words, may_hold
from bot.text_terms import (
    _FREQUENCY_HINTS,
    _FREQUENCY_RE,
    code_phrases,
    frequencies,
    number_values,
    quoted_phrases,
)

ATOMS = (
    "citecast", "Runs", "ONCE", "twice", "Thrice", "3 times", "two", "Twenty-Five", "hundred",
    "seats", "every", "Each", "per", "night", "nightly", "ANNUALLY", "hour", "hours", "10 MB",
    "30 seconds", "5%", "1,000", "v1.4.2", "don't", "o'two", "isn’t", "ſix", "KB", "日本語",
    "の", "。", ".", "!", "?", " ", "\n", "-", ",", ";", "(", ")", '"', "`pip install`", "_x_",
    "*bold*", "[^1]", "[^2]", "[label](https://x.example/a)", "  ", "\t", "not", "never",
    "no", "without", "answered", "retried", "at", "least", "a", "day", "week",
)  # fmt: skip
texts = st.lists(st.sampled_from(ATOMS), max_size=30).map(" ".join) | st.text(max_size=60)


@given(texts)
def test_the_ascii_tokeniser_reads_the_words_the_index_reads(text: str) -> None:
    assert fast_words(text) == words(text)


@pytest.mark.parametrize(
    ("pattern", "hints"),
    [
        (_WORD_NUMBER_RE, _NUMBER_WORDS),
        (_FREQUENCY_RE, _FREQUENCY_HINTS),
        (_COUNT_RE, _COUNT_HINTS),
    ],
)
@given(text=texts)
def test_a_pattern_is_skipped_only_where_it_cannot_match(
    pattern: re.Pattern[str], hints: tuple[str, ...], text: str
) -> None:
    if pattern.search(text):
        assert may_hold(text, hints)


def test_may_hold_reads_ascii_in_any_case_and_never_rules_out_other_text() -> None:
    assert not may_hold("Links expire after 2 hours.", _NUMBER_WORDS)
    assert may_hold("It runs TWICE a day", _COUNT_HINTS)
    assert frequencies("Runs NIGHTLY.") == frozenset({"day"})
    assert counts("answered Twice") == frozenset({("answer", 2)})
    assert may_hold("ſix hours", _NUMBER_WORDS)  # "ſ" folds to "s" in the pattern


def _old_plain(chunk: str) -> str:
    """``bot.claims._plain`` as it was before its patterns were guarded (the oracle)."""
    text = bot.claims.CITATION_RE.sub("", chunk)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = bot.claims._EMPHASIS_RE.sub("", text)
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r" ([.,;:!?])", r"\1", text)
    return text.strip().lstrip(",;: ").strip()


@given(texts)
def test_plain_text_is_what_it_was(chunk: str) -> None:
    assert _plain(chunk) == _old_plain(chunk)


answers = st.lists(
    st.sampled_from((*ATOMS, "`code [^3]`", "``a ` b``", "| a | b [^1] |", "- item", "\n\n")),
    max_size=40,
).map(" ".join)


@given(answers)
def test_one_reading_of_an_answer_gives_its_claims_and_its_sentences(text: str) -> None:
    found, read = read_answer(text)
    assert found == claims(text)
    # sentences as they were read apart: each raw sentence's own plain text
    apart = []
    for offset, raw in _raw_sentences(text):
        if plain := _old_plain(raw):
            numbers = tuple(int(n) for n in bot.claims.CITATION_RE.findall(raw))
            apart.append(bot.claims.Sentence(plain, numbers, offset))
    assert read == apart == sentences(text)


@given(
    st.lists(st.sampled_from(("a.", "b.", "c.", "d.", "e.")), min_size=1, max_size=6, unique=True),
    st.dictionaries(st.text(max_size=12), st.floats(0.0, 1.0), max_size=40),
    st.floats(0.0, 1.0),
)
def test_best_window_ends_early_only_where_nothing_can_do_better(
    parts: list[str], values: dict[str, float], default: float
) -> None:
    def score(window: str) -> float:
        return values.get(window, default)

    assert best_window(parts, score, ceiling=1.0) == best_window(parts, score)


def _old_hard_checks(premise: str, hypothesis: str) -> bool:
    """``hard_checks_pass`` as it was, reading both texts on every call (the oracle)."""
    if not number_values(hypothesis) <= number_values(premise):
        return False
    premise_units, claim_units = _units_by_value(premise), _units_by_value(hypothesis)
    for value, units in claim_units.items():
        if premise_units.get(value) and units.isdisjoint(premise_units[value]):
            return False
    stated_counts, claimed_counts = counts(premise), counts(hypothesis)
    for word, count in claimed_counts:
        stated_values = {v for w, v in stated_counts if w == word}
        if stated_values and count not in stated_values:
            return False
    claimed, stated = frequencies(hypothesis), frequencies(premise)
    if claimed and stated and claimed.isdisjoint(stated):
        return False
    lowered = premise.lower()
    if not all(phrase in lowered for phrase in quoted_phrases(hypothesis)):
        return False
    spaced = " ".join(lowered.split())
    return all(code in spaced for code in code_phrases(hypothesis))


@settings(max_examples=300)
@given(texts, texts)
def test_hard_checks_on_facts_read_once_are_the_checks_as_they_were(
    premise: str, claim: str
) -> None:
    expected = _old_hard_checks(premise, claim)
    assert hard_checks_pass(premise, claim) is expected
    assert facts_agree(PremiseFacts.of(premise), ClaimFacts.of(claim)) is expected
