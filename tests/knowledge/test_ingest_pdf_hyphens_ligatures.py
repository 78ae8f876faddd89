"""PDF words as a reader reads them: a word hyphenated across a line break is one word, and a
typographic ligature (ﬁ) is its letters, so search and quotes find "configuration"."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from bot.cli import main
from bot.knowledge import KnowledgeIndex
from bot.knowledge.pdf_reader import paragraphs
from tests.knowledge.conftest import PdfBuilder

# make_pdf.py wraps at 88 characters, which breaks this line after "configu-"
WRAPPED = (
    "Every option that the operator writes into the main part of the worker's own "
    "configu-ration file applies to each queue it serves."
)


def test_a_word_hyphenated_at_a_line_break_is_one_word() -> None:
    page = "The index keeps the configu-\nration of every file it reads."
    assert paragraphs(page) == [
        ("The index keeps the configuration of every file it reads.", False)
    ]


# a full line of the page before each case, so that no short line is taken for a heading
FULL = "This line of the page is long enough to count as one of its full lines of text, and"


def _joined(*lines: str) -> str:
    [(text, is_heading)] = paragraphs("\n".join([FULL, *lines]))
    assert not is_heading
    return text.removeprefix(FULL + " ")


def test_a_compound_the_page_writes_whole_keeps_its_hyphen() -> None:
    assert _joined(
        "run it self-hosted or in the cloud; a self-", "hosted setup needs a database."
    ) == ("run it self-hosted or in the cloud; a self-hosted setup needs a database.")


def test_a_compound_broken_at_its_hyphen_keeps_it_when_the_document_writes_its_words() -> None:
    page = "Set Restart=on-\nfailure so that a failure restarts the service on its own."
    assert paragraphs(page) == [
        ("Set Restart=on-failure so that a failure restarts the service on its own.", False)
    ]
    # where the document writes the word whole, the hyphen is a break after all
    words = frozenset({"on", "failure", "onfailure"})
    assert paragraphs("Set Restart=on-\nfailure now.", words=words)[0][0] == (
        "Set Restart=onfailure now."
    )


@pytest.mark.parametrize(
    ("lines", "joined"),
    [
        (["read the Co-", "Operation notes."], "read the Co- Operation notes."),
        (["prices for 2023-", "2024 are final."], "prices for 2023- 2024 are final."),
        (["a dash -", "then more."], "a dash - then more."),
        (["soft\u00ad", "hyphen and in\u00adner."], "softhyphen and inner."),
    ],
)
def test_only_a_lower_case_word_break_is_joined(lines: list[str], joined: str) -> None:
    assert _joined(*lines) == joined


def test_ligatures_are_letters() -> None:
    assert paragraphs("The conﬁguration ﬁle sets the ﬂag and the oﬃce.") == [
        ("The configuration file sets the flag and the office.", False)
    ]


def test_ingested_pdf_is_found_and_quoted_whole(
    tmp_path: Path, build_pdf: PdfBuilder, capsys: pytest.CaptureFixture[str]
) -> None:
    assert any(row.endswith("configu-") for row in textwrap.wrap(WRAPPED, 88))
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "worker.pdf").write_bytes(build_pdf([("Worker settings", [WRAPPED])]))
    config = tmp_path / "citecast.yaml"
    config.write_text(f"index:\n  path: {tmp_path / 'index.db'}\n", encoding="utf-8")
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    index = KnowledgeIndex(tmp_path / "index.db")
    try:
        [source] = index.search("configuration file")
    finally:
        index.close()
    assert source.text is not None
    assert "own configuration file applies" in source.text
    capsys.readouterr()
    assert (
        main(["--config", str(config), "ask", "Which queues does the configuration file apply to?"])
        == 0
    )
    answer = capsys.readouterr().out
    assert "configu- ration" not in answer
    assert "configuration file applies" in answer
