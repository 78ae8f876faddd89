"""The claim splitter ends sentences by the built-in answerer's rule (bot.sentence_rules):
not at "Dr.", "ca." or a German date's ordinal, at "lot B." before a new sentence and at the
Urdu full stop, so a marker closes the sentence the answerer quoted."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from bot.assistant.extractive_sentences import sentences_of
from bot.claims import claims, sentences
from bot.text_sentences import script_cuts


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (
            "Escalations go to Dr. Weber in the IT department [^1]. The phone is staffed [^2].",
            [
                ("Escalations go to Dr. Weber in the IT department.", (1,)),
                ("The phone is staffed.", (2,)),
            ],
        ),
        (
            "Die nächste Wartung findet am 3. Oktober zwischen 22 und 23 Uhr statt [^1]. "
            "Das Portal ist ca. 2 Stunden nicht erreichbar [^1].",
            [
                ("Die nächste Wartung findet am 3. Oktober zwischen 22 und 23 Uhr statt.", (1,)),
                ("Das Portal ist ca. 2 Stunden nicht erreichbar.", (1,)),
            ],
        ),
        (
            "Visitors park in lot B [^1]. The garage opens at six [^2].",
            [("Visitors park in lot B.", (1,)), ("The garage opens at six.", (2,))],
        ),
        (
            "پاس ورڈ کم از کم بارہ حروف کا ہونا چاہیے [^1]۔ "
            "دفتر کی پارکنگ صبح سات بجے کھلتی ہے [^2]۔",
            [
                ("پاس ورڈ کم از کم بارہ حروف کا ہونا چاہیے۔", (1,)),
                ("دفتر کی پارکنگ صبح سات بجے کھلتی ہے۔", (2,)),
            ],
        ),
    ],
)
def test_a_claim_is_the_whole_sentence(
    answer: str, expected: list[tuple[str, tuple[int, ...]]]
) -> None:
    assert [(c.sentence, c.numbers) for c in claims(answer)] == expected


def test_a_stop_before_a_marker_still_ends_the_sentence() -> None:
    found = sentences("Ask Dr.[^1] Then call the desk [^2].")
    assert [s.numbers for s in found] == [(1,), (2,)]


def test_grounding_adds_the_urdu_full_stop_and_no_cut_at_a_date() -> None:
    urdu = "پارکنگ سات بجے کھلتی ہے۔ دفتر نو بجے کھلتا ہے۔"
    assert script_cuts(urdu) == [(urdu.index("۔") + 1, urdu.index("۔") + 2)]
    german = "Die Wartung für alle ist am 3. Oktober. Das Portal ist ca. 2 Stunden zu."
    first = len("Die Wartung für alle ist am 3. Oktober.")
    assert script_cuts(german) == [(first, first + 1)]


_WORDS = ["Visitors", "park", "in", "lot", "the", "Weber", "Smith", "garage", "opens", "Mai"]
_WORDS += ["Dr.", "ca.", "3.", "Oktober", "B.", "J.", "z. B.", "etc.", "No.", "5", "The", "Die"]


@st.composite
def _paragraphs(draw: st.DrawFn) -> str:
    count = draw(st.integers(1, 4))
    out = []
    for _ in range(count):
        words = draw(st.lists(st.sampled_from(_WORDS), min_size=2, max_size=8))
        out.append("Entry " + " ".join(words) + " ends here at last" + draw(st.sampled_from(".!?")))
    return " ".join(out)


@given(_paragraphs())
def test_the_answerer_and_the_claim_splitter_agree(paragraph: str) -> None:
    claimed = [s.text for s in sentences(paragraph)]
    # (the answerer leaves out a stub of 12 characters or fewer: no boundary question)
    assume(all(len(text) > 12 for text in claimed))
    assert sentences_of(paragraph) == claimed
