"""Findings of the security review of the day's changes, each pinned: a page-named Answer JSON
that `citecast render` refused, a file swapped for a symlink that kept its wider audience, a
`<bdo dir="rtl">` that reversed text on the reading page, and the initial rule's look back."""

from __future__ import annotations

import io
import json
import os
import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import Settings
from bot.connectors.web_file_viewer import read_for_view, viewer_page
from bot.knowledge import ingest
from bot.models import Answer, Citation, Occurrence, Source
from bot.sentence_rules import stop_ends_sentence


def test_render_reads_the_answer_json_whose_markers_name_their_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Occurrence.to_json writes page/page_end; `citecast render` refused them as unknown fields
    source = Source(
        id="kb/h.pdf",
        title="Handbook",
        url="https://docs.example.com/h.pdf",
        media_type="application/pdf",
        page=1,
        page_end=2,
    )
    marker = Occurrence(quote="Leave is 20 days.", page=2)
    citation = Citation(n=1, source=source, source_number=1, quote="Leave.", occurrences=(marker,))
    answer = Answer(text="Leave is 20 days.[^1]", citations=(citation,))
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(answer.to_json())))
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)
    assert main(["render", "--channel", "slack"]) == 0, capsys.readouterr().err
    assert "Handbook" in capsys.readouterr().out


def _audiences(index: Path) -> dict[str, str]:
    with sqlite3.connect(index) as conn:
        rows = conn.execute(
            "SELECT f.relpath, (SELECT audience FROM chunks WHERE file_id = f.id LIMIT 1) "
            "FROM files f"
        )
        return {str(path): str(audience) for path, audience in rows}


def test_a_file_turned_into_a_link_is_narrowed_by_its_own_path_rules(tmp_path: Path) -> None:
    (tmp_path / "kb" / "faq").mkdir(parents=True)
    (tmp_path / "kb" / "internal").mkdir()
    page = "---\naudience: public\n---\n# Pay\n\nPayday is the 25th of each month.\n"
    (tmp_path / "kb" / "faq" / "pay.md").write_text(page, encoding="utf-8")
    (tmp_path / "kb" / "internal" / "pay.md").write_text(page, encoding="utf-8")
    rules = [{"glob": "internal/*", "audience": ["staff"]}]
    settings = Settings.model_validate(
        {"index": {"path": str(tmp_path / "index.db"), "audience_rules": rules}}
    )
    ingest([tmp_path / "kb"], settings.index)
    assert "public" in _audiences(tmp_path / "index.db")["kb/internal/pay.md"]  # front matter
    (tmp_path / "kb" / "internal" / "pay.md").unlink()
    os.symlink("../faq/pay.md", tmp_path / "kb" / "internal" / "pay.md")
    report = ingest([tmp_path / "kb"], settings.index)
    assert report.indexed == 1  # the link is read, not taken for the file it replaced
    # as a fresh index of this tree has it: a link's own path's rules narrow it
    assert "staff" in _audiences(tmp_path / "index.db")["kb/internal/pay.md"]


def test_the_reading_page_shows_no_bdo_reversal(tmp_path: Path) -> None:
    page = tmp_path / "bank.html"
    page.write_text(
        '<html dir="rtl"><body><p dir="rtl">שלום <a href="https://evil.example/">'
        '<bdo dir="rtl">moc.knab//:sptth</bdo></a></p></body></html>',
        encoding="utf-8",
    )
    shown = viewer_page(read_for_view(page, page.name, "html"))
    assert '<bdo dir="rtl">' not in shown and "<bdo>" in shown  # shown in its written order
    assert '<p dir="rtl">' in shown  # other elements keep their direction


def test_an_initials_verdict_looks_only_at_the_words_just_before_it() -> None:
    # each initial's check copied and split all the text before it: a paragraph of
    # "x Q. Bob" repeated took an ingest time squared in its length
    near = "The report was written by J. Smith."
    far = "x Q. Bob " * 5_000 + near
    stop = far.index("J.") + 1
    assert stop_ends_sentence(far, stop) is stop_ends_sentence(near, near.index("J.") + 1)
    assert stop_ends_sentence(far, stop) is False
