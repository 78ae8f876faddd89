"""A paragraph longer than a chunk is cut at sentence ends of every script, never in
mid-sentence when a sentence ends within the chunk; a huge file without any is cut in one pass,
and a stop request is taken between its passages."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.chunking import split_long


def _cut_only_after(pieces: list[str], ends: str) -> None:
    assert len(pieces) > 1
    for piece in pieces:
        assert piece.rstrip()[-1] in ends, piece


def test_russian_sentences_are_kept_whole() -> None:
    text = " ".join(
        f"Предложение номер {n} описывает порядок работы склада и правила приёмки."
        for n in range(40)
    )
    text += " Пропуск на склад ЯШМА выдаёт служба охраны по заявке начальника смены."
    pieces = split_long(text, 400)
    _cut_only_after(pieces, ".")
    assert any(
        p.endswith("Пропуск на склад ЯШМА выдаёт служба охраны по заявке начальника смены.")
        for p in pieces
    )


@pytest.mark.parametrize(
    ("sentence", "ends"),
    [
        ("Ο αποθηκάριος ελέγχει κάθε παλέτα πριν από την παραλαβή της;", ";"),
        ("गोदाम का प्रबंधक हर सुबह आठ बजे सभी पैलेट की जांच करता है।", "।"),
        ("هل يتحقق مدير المستودع من كل منصة قبل الاستلام في الصباح؟", "؟"),
        ("Über die Annahme entscheidet der Lagerleiter jeden Morgen persönlich.", "."),
        ("¿Quién revisa cada palé antes de la recepción en el almacén?", "?"),
        ("citecast reads every file of the folder once and keeps its passages.", "."),
    ],
)
def test_other_scripts_and_lower_case_sentences_end_at_their_full_stops(
    sentence: str, ends: str
) -> None:
    pieces = split_long(" ".join([sentence] * 30), 300)
    _cut_only_after(pieces, ends)
    assert all(p.strip() in (" ".join([sentence] * k) for k in range(1, 30)) for p in pieces)


def test_japanese_sentences_are_cut_after_their_full_stop_with_no_space_added() -> None:
    sentence = "倉庫の責任者は毎朝八時にすべてのパレットを確認します。"
    pieces = split_long(sentence * 40, 200)
    _cut_only_after(pieces, "。")
    assert "".join(pieces) == sentence * 40


prose = st.text(alphabet="aБß Ω.?!¿¡।;\n。", max_size=600)


@given(prose, st.integers(min_value=20, max_value=200))
def test_any_text_keeps_every_word_within_the_limit(text: str, limit: int) -> None:
    pieces = split_long(text, limit)
    assert all(len(p) <= limit for p in pieces)
    assert "".join("".join(pieces).split()) == "".join(text.split())


def test_a_stop_request_is_taken_between_passages_of_one_huge_file(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    lines = "\n".join(f"2026-01-01 12:00:{n % 60:02d} INFO worker-{n} done" for n in range(20000))
    (docs / "app.log.txt").write_text(lines)
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    made = 0

    def stop_after_three() -> None:
        nonlocal made
        made += 1
        if made > 3:
            raise KeyboardInterrupt  # Ctrl-C, as the command's check raises it

    with pytest.raises(KeyboardInterrupt):
        ingest([docs], settings, on_chunk=stop_after_three)
    assert made == 4  # stopped at the fourth passage, not after the file's hundreds
    assert KnowledgeIndex(settings.path).stats().chunks == 0  # the file left out whole
