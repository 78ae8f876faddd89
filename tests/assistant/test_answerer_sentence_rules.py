"""The built-in answerer quotes whole sentences: not cut at a German date's ordinal or an
abbreviation, not glued at a single capital that ends a sentence ("lot B."), and ended at the
Urdu full stop; the marker cites the sentence that answers (the claim splitter agrees)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.assistant.cited_lines import with_marker
from bot.assistant.extractive_sentences import sentences_of
from bot.cli import main
from tests.assistant.handbook_index import ask, ingested

WARTUNG = (
    "# Wartungsfenster\n\n## Termine\n\n"
    "Die nächste Wartung findet am 3. Oktober zwischen 22 und 23 Uhr statt. Während der "
    "Wartung ist das Portal ca. 2 Stunden nicht erreichbar.\n"
)


@pytest.mark.parametrize(
    ("paragraph", "expected"),
    [
        (
            WARTUNG.split("\n\n")[-1].strip(),
            [
                "Die nächste Wartung findet am 3. Oktober zwischen 22 und 23 Uhr statt.",
                "Während der Wartung ist das Portal ca. 2 Stunden nicht erreichbar.",
            ],
        ),
        (
            "Escalations go to Dr. Weber in the IT department. The phone is staffed.",
            ["Escalations go to Dr. Weber in the IT department.", "The phone is staffed."],
        ),
        (
            "Visitors park in lot B. The garage opens at six in the morning.",
            ["Visitors park in lot B.", "The garage opens at six in the morning."],
        ),
        (
            "Le bureau ouvre à 16 h. Le guichet ferme à midi et demi.",
            ["Le bureau ouvre à 16 h.", "Le guichet ferme à midi et demi."],
        ),
        (
            "Bitte bringen Sie z. B. den Ausweis mit. Der Empfang ist im Erdgeschoss.",
            ["Bitte bringen Sie z. B. den Ausweis mit.", "Der Empfang ist im Erdgeschoss."],
        ),
        (
            "J. Smith signs the travel reports. Ask Anna K. Nowak about the budget.",
            ["J. Smith signs the travel reports.", "Ask Anna K. Nowak about the budget."],
        ),
        (
            "پاس ورڈ کم از کم بارہ حروف کا ہونا چاہیے۔ دفتر کی پارکنگ صبح سات بجے کھلتی ہے۔",
            ["پاس ورڈ کم از کم بارہ حروف کا ہونا چاہیے۔", "دفتر کی پارکنگ صبح سات بجے کھلتی ہے۔"],
        ),
    ],
)
def test_sentences_end_where_the_shared_rule_ends_them(paragraph: str, expected: list[str]) -> None:
    assert sentences_of(paragraph) == expected


def test_the_marker_cites_the_sentence_that_answers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "lot B." ends its sentence for the answerer as for the claim splitter: glued to the
    garage sentence, [1]'s quote was the garage sentence and the lot-B one went uncited."""
    config = ingested(
        tmp_path,
        {
            "visitors.md": "# Visitor guide\n\n## Parking\n\nVisitors park in lot B. The garage "
            "opens at six in the morning and closes at midnight.\n"
        },
    )
    capsys.readouterr()
    assert main(["--config", str(config), "ask", "--json", "Where do visitors park?"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["citations"][0]["quote"] == "Visitors park in lot B."


@pytest.mark.parametrize(
    ("question", "quoted"),
    [
        ("Wann findet die nächste Wartung statt?", "am 3. Oktober zwischen 22 und 23 Uhr"),
        ("Wie lange ist das Portal während der Wartung nicht erreichbar?", "ca. 2 Stunden"),
    ],
)
def test_a_german_date_and_abbreviation_are_quoted_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], question: str, quoted: str
) -> None:
    config = ingested(tmp_path, {"wartung.md": WARTUNG})
    answer, _ = ask(config, question, capsys)
    assert quoted in answer


def test_an_english_title_is_quoted_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = ingested(
        tmp_path,
        {
            "it.md": "# IT support\n\n## Escalation\n\nEscalations go to Dr. Weber in the IT "
            "department. The phone line is staffed on weekdays.\n"
        },
    )
    answer, _ = ask(config, "Where do escalations go?", capsys)
    assert "Dr. Weber in the IT department" in answer


def test_an_urdu_full_stop_keeps_its_place_after_the_marker() -> None:
    # the answerer wrote "…چاہیے۔ [1]." with a Latin full stop added after the Urdu one
    sentence = "پاس ورڈ کم از کم بارہ حروف کا ہونا چاہیے۔"
    assert with_marker(sentence, 1) == "پاس ورڈ کم از کم بارہ حروف کا ہونا چاہیے [1]۔"
