"""A long paragraph is cut into chunks at sentence ends by the answerer's rule
(bot.sentence_rules): never after a German date's ordinal, "Dr." or "z. B.", and at the Urdu
full stop."""

from __future__ import annotations

from bot.knowledge.chunking import split_long
from bot.knowledge.sentence_ends import sentence_spans, weak_end_before

WARTUNG = (
    "Die nächste Wartung findet am 3. Oktober zwischen 22 und 23 Uhr statt. Fragen gehen an "
    "Dr. Weber im IT-Referat. Bringen Sie z. B. den Ausweis mit."
)


def test_no_sentence_ends_at_an_ordinal_a_title_or_an_abbreviation() -> None:
    assert [WARTUNG[start:end] for start, end in sentence_spans(WARTUNG)] == [
        "Die nächste Wartung findet am 3. Oktober zwischen 22 und 23 Uhr statt.",
        "Fragen gehen an Dr. Weber im IT-Referat.",
        "Bringen Sie z. B. den Ausweis mit.",
    ]


def test_an_urdu_full_stop_ends_a_sentence() -> None:
    text = "پاس ورڈ کم از کم بارہ حروف کا ہونا چاہیے۔ دفتر کی پارکنگ صبح سات بجے کھلتی ہے۔"
    first = text.index("۔") + 1
    assert sentence_spans(text) == [(0, first), (first + 1, len(text))]


def test_a_weak_end_is_not_an_abbreviation() -> None:
    text = "bitte den ausweis mitbringen. danach z. B. den schlüssel abgeben"
    assert weak_end_before(text, 0, len(text)) == len("bitte den ausweis mitbringen.")


def test_a_long_german_paragraph_is_cut_only_after_sentences() -> None:
    pieces = split_long(" ".join([WARTUNG] * 20), 300)
    assert len(pieces) > 1
    for piece in pieces:
        assert piece.startswith(("Die nächste", "Fragen gehen", "Bringen Sie")), piece
        assert piece.endswith(("statt.", "IT-Referat.", "mit.")), piece
