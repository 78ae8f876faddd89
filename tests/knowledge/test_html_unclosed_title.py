"""A page whose ``<title>`` is never closed is skipped with that reason, not a bare "no text".

Found in a QA pass: a 200 KB page of paragraphs, all inside an unclosed ``<title>``, was
reported as ``no text``, which sent its writer looking at a file full of text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.knowledge.document import Unreadable
from bot.knowledge.readers import read_document

PARAGRAPHS = "".join(f"<p>Paragraph {n} about the okapi.</p>\n" for n in range(2000))


def test_an_unclosed_title_is_the_reason_in_the_ingest_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "kb"
    docs.mkdir()
    page = f"<html><head><title>Okapi guide\n</head><body>\n{PARAGRAPHS}</body></html>\n"
    (docs / "guide.html").write_text(page, encoding="utf-8")
    (tmp_path / "config.yaml").write_text(f"index:\n  path: {tmp_path / 'index.db'}\n")
    assert main(["--config", str(tmp_path / "config.yaml"), "ingest", str(docs)]) == 0
    out = capsys.readouterr().out
    assert "skipped kb/guide.html: no text: an unclosed <title> holds the whole page" in out


@pytest.mark.parametrize(
    "page",
    [
        "<html><head><title>Okapi guide</title></head><body>\n</body></html>\n",
        "<html><head><title></head><body>\n</body></html>\n",
    ],
    ids=["closed title", "empty unclosed title"],
)
def test_a_page_without_text_is_still_plain_no_text(page: str) -> None:
    with pytest.raises(Unreadable) as skipped:
        read_document(Path("empty.html"), page.encode())
    assert str(skipped.value) == "no text"


def test_a_page_with_text_and_an_unclosed_svg_title_is_read() -> None:
    page = f"<html><head><title>Okapi</title></head><body><svg><title>icon</svg>{PARAGRAPHS}"
    document = read_document(Path("guide.html"), page.encode())
    assert document.title == "Okapi" and len(document.blocks) == 2000
