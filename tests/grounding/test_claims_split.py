"""How an answer is split into the claims its citations are checked against."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.claims import claims, mask_code, sentences


def test_marker_closes_its_sentence() -> None:
    text = "Install with pip install citecast [^1]. Then run make serve.[^2] Done."
    found = claims(text)
    assert [(c.text, c.numbers) for c in found] == [
        ("Install with pip install citecast", (1,)),
        ("Then run make serve.", (2,)),
    ]


def test_clause_markers_split_a_sentence() -> None:
    text = "The index uses SQLite full text search [^1], and replies retry five times [^2]."
    first, second = claims(text)
    assert first.text == "The index uses SQLite full text search"
    assert second.text == "and replies retry five times"
    assert first.sentence == second.sentence


def test_short_clause_extends_to_sentence_start() -> None:
    text = "The bot retries five times when Slack answers 429 [^1] as documented [^2]."
    first, second = claims(text)
    assert first.text == "The bot retries five times when Slack answers 429"
    assert second.text == "The bot retries five times when Slack answers 429 as documented"


def test_adjacent_markers_form_one_group() -> None:
    (claim,) = claims("Slack limits section text to 3,000 characters [^1][^2].")
    assert claim.numbers == (1, 2)
    assert claim.text == "Slack limits section text to 3,000 characters"


def test_code_is_never_a_claim() -> None:
    text = "Run this:\n\n```\nmake serve [^1]\n```\n\nIt starts `the [^2] server` fast [^3].\n"
    found = claims(text)
    assert [c.numbers for c in found] == [(3,)]
    assert "[^1]" not in mask_code(text)
    assert len(mask_code(text)) == len(text)


def test_headings_and_table_cells() -> None:
    text = "# Setup [^9]\n\n| key | meaning |\n|---|---|\n| port | The web port is 8000 [^1] |\n"
    found = claims(text)
    assert [c.numbers for c in found] == [(1,)]
    assert found[0].text == "The web port is 8000"


def test_sentences_keep_their_numbers_and_list_items_split() -> None:
    text = "- First item states a fact [^1].\n- Second item has none.\n\nA question?"
    got = [(s.text, s.numbers) for s in sentences(text)]
    assert got == [
        ("First item states a fact.", (1,)),
        ("Second item has none.", ()),
        ("A question?", ()),
    ]


@given(st.text(max_size=400))
def test_claims_never_crash_and_offsets_point_at_markers(text: str) -> None:
    for claim in claims(text):
        assert text[claim.offset : claim.offset + 2] == "[^"
        assert claim.numbers
