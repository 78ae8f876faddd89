"""Sentences of other scripts are quoted whole: a Spanish ``¿…?`` inside a paragraph is a
sentence (and a question) of its own, the Hindi danda, the Arabic and the Greek question marks
end sentences, and a marker never goes inside a ``¡…!`` pair."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.cited_lines import joiner, with_marker
from bot.assistant.extractive_faq import asks
from bot.assistant.extractive_sentences import sentences_of
from tests.assistant.handbook_index import ask, ingested

GARANTIA = (
    "# Garantía\n\n## Duración\n\n"
    "La garantía dura dos años desde la compra. ¿Necesita una factura? Puede descargarla desde "
    "su cuenta.\n"
)


def test_a_spanish_question_inside_a_paragraph_is_a_sentence_of_its_own() -> None:
    assert sentences_of(GARANTIA.split("\n\n")[-1]) == [
        "La garantía dura dos años desde la compra.",
        "¿Necesita una factura?",
        "Puede descargarla desde su cuenta.",
    ]


def test_the_spanish_fact_is_quoted_not_the_question_glued_to_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = ingested(tmp_path, {"garantia.md": GARANTIA})
    answer, _ = ask(config, "¿Cuánto dura la garantía?", capsys)
    assert answer == "La garantía dura dos años desde la compra [1]."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "गोदाम का प्रबंधक हर सुबह पैलेट की जांच करता है। शाम को वह रिपोर्ट भेजता है।",
            ["गोदाम का प्रबंधक हर सुबह पैलेट की जांच करता है।", "शाम को वह रिपोर्ट भेजता है।"],
        ),
        (
            "كيف أغير كلمة المرور؟ اضغط على الإعدادات ثم الأمان لتعيين كلمة مرور جديدة.",
            ["كيف أغير كلمة المرور؟", "اضغط على الإعدادات ثم الأمان لتعيين كلمة مرور جديدة."],
        ),
        (
            "Πώς αλλάζω τον κωδικό πρόσβασης; Πατήστε Ρυθμίσεις και μετά Ασφάλεια.",
            ["Πώς αλλάζω τον κωδικό πρόσβασης;", "Πατήστε Ρυθμίσεις και μετά Ασφάλεια."],
        ),
        # a semicolon between Latin words is no sentence end
        (
            "Use the staging host; Production needs a ticket.",
            ["Use the staging host; Production needs a ticket."],
        ),
    ],
)
def test_the_danda_and_the_arabic_and_greek_question_marks_end_sentences(
    text: str, expected: list[str]
) -> None:
    assert sentences_of(text) == expected


def test_arabic_and_greek_question_lines_are_questions() -> None:
    assert asks("كيف أغير كلمة المرور؟")
    assert asks("Πώς αλλάζω τον κωδικό πρόσβασης;")
    assert not asks("Use the staging host;")


def test_the_marker_follows_a_spanish_exclamation_or_question_pair() -> None:
    assert with_marker("¡Gracias por su paciencia!", 1) == "¡Gracias por su paciencia![1]"
    assert with_marker("¿Está incluido el envío?", 2) == "¿Está incluido el envío?[2]"
    assert with_marker("Thanks for waiting!", 3) == "Thanks for waiting [3]!"


def test_a_danda_an_arabic_or_a_greek_question_mark_stays_the_sentence_end() -> None:
    assert with_marker("भुगतान कई कारणों से विफल हो सकता है।", 1) == (
        "भुगतान कई कारणों से विफल हो सकता है [1]।"
    )
    assert with_marker("هل يمكنني امتلاك حسابين؟", 2) == "هل يمكنني امتلاك حسابين [2]؟"
    assert with_marker("Μπορώ να έχω δύο λογαριασμούς;", 3) == (
        "Μπορώ να έχω δύο λογαριασμούς [3];"
    )
    assert with_marker("Use the staging host;", 4) == "Use the staging host [4]."


def test_japanese_sentences_run_on_before_a_number_with_no_space() -> None:
    assert joiner("基本料金は500円です[1]。", "5000円以上は送料無料です[1]。") == ""
