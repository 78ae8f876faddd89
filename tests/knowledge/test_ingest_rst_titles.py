"""reStructuredText section titles are headings, and the first one titles the file.

Found by QA: ``.rst`` was read as plain text, so ``Forklift licences`` over a line of dashes
was quoted as the sentence "Forklift licences ----------------- [1]." and the file was cited
as ``notes.rst`` rather than by its title, "Forklift notes".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.rst_reader import read_rst

NOTES = """\
==============
Forklift notes
==============

Every warehouse keeps two forklifts.

Forklift licences
-----------------

Every driver renews the licence every three years.

Night shifts
~~~~~~~~~~~~

Licences are checked at the gate.

----

Battery care
------------

Charge the batteries overnight.
"""


def _sections(text: str) -> list[tuple[str | None, str]]:
    return [(block.section, block.text) for block in read_rst(text, "notes.rst").blocks]


def test_titles_are_headings_by_adornment_style_and_never_text() -> None:
    document = read_rst(NOTES, "notes.rst")
    assert document.title == "Forklift notes"
    assert _sections(NOTES) == [
        ("Forklift notes", "Every warehouse keeps two forklifts."),
        (
            "Forklift notes > Forklift licences",
            "Every driver renews the licence every three years.",
        ),
        (
            "Forklift notes > Forklift licences > Night shifts",
            "Licences are checked at the gate.",
        ),
        ("Forklift notes > Battery care", "Charge the batteries overnight."),
    ]


def test_an_inset_title_between_rules_and_markup_in_a_title() -> None:
    text = "------------\n  Overview\n------------\n\nUse ``fl-2``\n============\n\nBody.\n"
    document = read_rst(text, "x.rst")
    assert document.title == "Overview"
    assert _sections(text) == [("Overview > Use fl-2", "Body.")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # an underline shorter than its title and than four characters: text, as docutils
        ("Total\n--\n", [(None, "Total\n--")]),
        # a shorter underline of four or more: docutils warns and takes the title
        ("Forklift licences\n-----\n\nBody.\n", [("Forklift licences", "Body.")]),
        # an overline that its underline does not match is left out as a stray rule
        ("=====\nTitle\n-----\n\nBody.\n", [("Title", "Body.")]),
        # an indented line is a block quote's, not a title
        ("Intro.\n\n    Quoted\n    ------\n", [(None, "Intro."), (None, "Quoted\n    ------")]),
        # a rule under a paragraph's later line is drawn, not read
        ("First line\nsecond line\n----------\n", [(None, "First line\nsecond line")]),
    ],
)
def test_what_is_not_a_title(text: str, expected: list[tuple[str | None, str]]) -> None:
    assert _sections(text) == expected


def test_a_title_may_follow_a_title_without_a_blank_line() -> None:
    text = "=====\nTitle\n=====\nMore\n----\nBody.\n"
    assert _sections(text) == [("Title > More", "Body.")]


def test_a_file_without_titles_is_named_by_its_file_name() -> None:
    document = read_rst("Just a paragraph.\n\nAnother one.\n", "plain.rst")
    assert document.title == "plain.rst"
    assert [block.text for block in document.blocks] == ["Just a paragraph.", "Another one."]


def test_an_ingested_rst_file_is_searched_by_its_sections(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "notes.rst").write_text(NOTES, encoding="utf-8")
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    assert ingest([kb], settings).indexed == 1
    index = KnowledgeIndex(settings.path)
    try:
        [found, *_] = index.search("licence renews driver")
    finally:
        index.close()
    assert (found.title, found.section) == ("Forklift notes", "Forklift notes > Forklift licences")
    assert "---" not in (found.text or "")


def test_ask_quotes_the_sentence_not_the_underline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "notes.rst").write_text(NOTES, encoding="utf-8")
    assert main(["ingest", "kb"]) == 0
    capsys.readouterr()
    assert main(["ask", "how often does a driver renew the forklift licence"]) == 0
    out = capsys.readouterr().out
    assert "Every driver renews the licence every three years [1]." in out
    assert "---" not in out and "~~~" not in out
    assert "[1] Forklift notes" in out
