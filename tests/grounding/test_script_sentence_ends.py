"""Grounding ends sentences where the knowledge reader does in other scripts: the Hindi danda,
the Arabic question mark, a Greek ";" between Greek words, and a full stop before a closing
guillemet or curly quote (bot.knowledge.sentence_ends), so each claim is judged against its
own sentence and a quote is one sentence."""

from __future__ import annotations

from bot.claims import claims, sentences
from bot.grounding import verify
from bot.models import Answer, Citation, Source
from bot.support import passage_sentences
from bot.text_terms import negated_terms

HINDI = "सूचकांक हर रात दो बजे बनता है। खोज परिणाम पाँच मिनट तक रखे जाते हैं। लॉग तीस दिनों तक रखे जाते हैं।"
GREEK = "Πώς αλλάζει ο κωδικός; Ο διαχειριστής αλλάζει τον κωδικό από τη σελίδα ρυθμίσεων."


def _source(text: str) -> Source:
    return Source(
        id="guide#1",
        title="Guide",
        url="https://docs.example.org/guide.md",
        media_type="text/markdown",
        text=text,
    )


def test_each_hindi_claim_is_its_own_sentence() -> None:
    found = claims("सूचकांक हर रात दो बजे बनता है [^1]। लॉग तीस दिनों तक रखे जाते हैं [^2]।")
    assert [(c.sentence, c.numbers) for c in found] == [
        ("सूचकांक हर रात दो बजे बनता है।", (1,)),
        ("लॉग तीस दिनों तक रखे जाते हैं।", (2,)),
    ]


def test_a_marker_after_the_danda_belongs_to_the_sentence_before() -> None:
    found = sentences("सूचकांक हर रात बनता है।[^1] लॉग तीस दिनों तक रखे जाते हैं।[^2]")
    assert [(s.text, s.numbers) for s in found] == [
        ("सूचकांक हर रात बनता है।", (1,)),
        ("लॉग तीस दिनों तक रखे जाते हैं।", (2,)),
    ]


def test_arabic_and_greek_answers_split_at_their_question_marks() -> None:
    arabic = sentences("هل يمكن تغيير كلمة المرور؟ نعم من صفحة الإعدادات [^1].")
    assert [s.text for s in arabic] == ["هل يمكن تغيير كلمة المرور؟", "نعم من صفحة الإعدادات."]
    greek = sentences("Πώς αλλάζει ο κωδικός; Από τη σελίδα ρυθμίσεων [^1].")
    assert [s.text for s in greek] == ["Πώς αλλάζει ο κωδικός;", "Από τη σελίδα ρυθμίσεων."]


def test_a_semicolon_in_english_or_before_a_lower_case_greek_word_ends_nothing() -> None:
    assert len(sentences("Use a key; Keys expire after a day [^1].")) == 1
    assert passage_sentences("Ο κωδικός; αλλάζει εύκολα.") == ("Ο κωδικός; αλλάζει εύκολα.",)


def test_a_hindi_passage_is_read_sentence_by_sentence() -> None:
    assert passage_sentences(HINDI) == (
        "सूचकांक हर रात दो बजे बनता है।",
        "खोज परिणाम पाँच मिनट तक रखे जाते हैं।",
        "लॉग तीस दिनों तक रखे जाते हैं।",
    )


def test_a_spanish_question_in_guillemets_is_its_own_sentence() -> None:
    passage = "Pague en la tienda. «¿Necesita una factura?» Escríbanos antes del viernes."
    assert passage_sentences(passage) == (
        "Pague en la tienda.",
        "«¿Necesita una factura?»",
        "Escríbanos antes del viernes.",
    )
    assert passage_sentences("¡Listo! ¿Necesita ayuda? Escríbanos.") == (
        "¡Listo!",
        "¿Necesita ayuda?",
        "Escríbanos.",
    )


def test_a_quote_from_a_hindi_passage_is_one_sentence() -> None:
    answer = Answer(
        "सूचकांक हर रात दो बजे बनता है [^1]।",
        (Citation(n=1, source=_source(HINDI), source_number=1),),
    )
    (citation,) = verify(answer).citations
    assert citation.quote == "सूचकांक हर रात दो बजे बनता है।"


def test_a_quote_from_a_greek_passage_is_one_sentence() -> None:
    answer = Answer(
        "Ο διαχειριστής αλλάζει τον κωδικό από τη σελίδα ρυθμίσεων [^1].",
        (Citation(n=1, source=_source(GREEK), source_number=1),),
    )
    (citation,) = verify(answer).citations
    assert citation.quote == "Ο διαχειριστής αλλάζει τον κωδικό από τη σελίδα ρυθμίσεων."


def test_a_negation_bears_on_its_own_clause_up_to_a_danda() -> None:
    # "not" negates "slow", not the next sentence's logs
    assert negated_terms("Search is not slow। Logs expire daily") == {"search", "slow"}
