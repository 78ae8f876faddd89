"""A folder ingested with ``--audience`` and then moved or renamed never becomes public silently.

Found by a QA pass (reproduced twice): the ``--audience`` of a run is remembered by the
folder's absolute path, so after ``mv kb/internal kb/private`` (or moving the whole knowledge
base with its index) the next ``citecast ingest kb`` indexed the same bytes as public, the
summary saying only ``… indexed … removed``. Moving a file from ``internal/`` to ``public/`` is
also how one publishes it, so the audience is not kept; but the summary now warns of the
remembered folder that no longer exists (with the command that gives its audience again) and
notes each file whose same content came back under a wider audience.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.ingest_widened import Widened

PUBLIC = frozenset({"public"})
SECRET = "# Pay\n\nThe okapi salary is 450000 euros per year.\n"


def _knowledge_base(tmp_path: Path) -> Path:
    kb = tmp_path / "site" / "kb"
    (kb / "internal").mkdir(parents=True)
    (kb / "internal" / "pay.md").write_text(SECRET, encoding="utf-8")
    (kb / "pub").mkdir()
    (kb / "pub" / "hello.md").write_text("# Hello\n\nWelcome aboard.\n", encoding="utf-8")
    return kb


@pytest.mark.parametrize("move", ["folder-renamed", "knowledge-base-moved"])
def test_a_moved_staff_folder_is_named_and_its_files_noted_as_wider(
    tmp_path: Path, move: str
) -> None:
    kb = _knowledge_base(tmp_path)
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    ingest([kb / "internal"], settings, audience=["staff"])
    first = ingest([kb], settings)
    assert KnowledgeIndex(settings.path).search("okapi salary", PUBLIC, 5) == []
    assert (first.gone_roots, first.widened) == ([], [])
    internal = kb / "internal"
    if move == "folder-renamed":
        internal.rename(kb / "private")
        moved, new = "kb/private/pay.md", ["kb/private/pay.md"]
    else:
        (tmp_path / "site").rename(tmp_path / "moved")
        kb = tmp_path / "moved" / "kb"
        # every file is new to the index; only the staff one widened
        moved, new = "kb/internal/pay.md", ["kb/internal/pay.md", "kb/pub/hello.md"]
    report = ingest([kb], settings)
    assert report.gone_roots == [(str(internal), ("staff",))]
    assert sorted(report.new_public) == new
    assert report.widened == [Widened(moved, "internal/pay.md", ("staff",), ("public",))]
    # the next run has nothing more to say: no new file was made public
    again = ingest([kb], settings)
    assert (again.gone_roots, again.new_public, again.widened) == ([], [], [])


def test_a_file_moved_to_a_narrower_or_equal_audience_is_not_noted(tmp_path: Path) -> None:
    kb = _knowledge_base(tmp_path)
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    ingest([kb / "internal"], settings, audience=["staff"])
    ingest([kb], settings)
    (kb / "hr").mkdir()
    (kb / "internal" / "pay.md").rename(kb / "hr" / "pay.md")
    (kb / "pub" / "hello.md").rename(kb / "hr" / "hello.md")  # public to hr: narrower
    moved = ingest([kb / "hr"], settings, audience=["staff"])
    assert moved.removed == 2
    assert (moved.widened, moved.new_public) == ([], [])
    report = ingest([kb], settings)
    assert (report.widened, report.new_public, report.gone_roots) == ([], [], [])


def test_a_file_published_by_moving_it_is_public_and_noted(tmp_path: Path) -> None:
    # moving a file out of the private folder is a way to publish it: the audience goes
    kb = _knowledge_base(tmp_path)
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    ingest([kb / "internal"], settings, audience=["staff"])
    ingest([kb], settings)
    (kb / "internal" / "pay.md").rename(kb / "pub" / "pay.md")
    report = ingest([kb], settings)
    hits = KnowledgeIndex(settings.path).search("okapi salary", PUBLIC, 5)
    assert [h.id for h in hits] == ["kb/pub/pay.md#1"]
    assert report.widened == [Widened("kb/pub/pay.md", "internal/pay.md", ("staff",), ("public",))]
    assert report.gone_roots == []  # the folder is still there


def test_the_summary_warns_of_the_folder_and_notes_the_wider_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kb = _knowledge_base(tmp_path)
    config = tmp_path / "config.yaml"
    config.write_text(f"index:\n  path: {tmp_path / 'index.db'}\n", encoding="utf-8")
    cli = ["--config", str(config), "ingest"]
    assert main([*cli, "--audience", "staff", str(kb / "internal")]) == 0
    assert main([*cli, str(kb)]) == 0
    (kb / "internal").rename(kb / "private")
    capsys.readouterr()
    assert main([*cli, str(kb)]) == 0
    out = capsys.readouterr().out
    assert (
        f"warning: folder {kb / 'internal'} was ingested with --audience staff and no longer "
        "exists; this run made 1 file new to the index public (kb/private/pay.md): if the "
        "folder was moved or renamed (or the knowledge base with its index), give it its "
        f"audience again under its new path: `citecast --config {config} ingest --audience "
        "staff NEW_PATH`\n"
    ) in out
    assert (
        "note: 1 file is now wider than before: kb/private/pay.md staff → public "
        "(was internal/pay.md)\n"
    ) in out
