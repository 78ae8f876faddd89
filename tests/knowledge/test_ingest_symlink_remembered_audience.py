"""A symlink to a file kept private by its folder's remembered ``--audience`` stays private.

Found by a security QA pass: ``citecast ingest --audience staff internal``, then ``ln -s
../internal/pay.md faq/pay.md`` and ``citecast ingest kb`` indexed ``faq/pay.md`` as public,
and its text answered public questions. A link was narrowed by its target's rules and front
matter, but the target's default came from the link's folder, not the ``--audience`` the
target's own folder was ingested with. Now a link is narrowed by the audience the run gives
its target: this run's ``--audience`` inside its folders, else the target folder's remembered
one (else the audience the index has for the target).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest


def _kb(tmp_path: Path) -> tuple[Path, IndexSettings]:
    kb = tmp_path / "kb"
    (kb / "internal").mkdir(parents=True)
    (kb / "faq").mkdir()
    (kb / "internal" / "pay.md").write_text("The walrus salary is 9000 euros.\n")
    return kb, IndexSettings(path=str(tmp_path / "i.db"))


def _ids(settings: IndexSettings, *groups: str) -> list[str]:
    found = KnowledgeIndex(settings.path).search("walrus salary", audience=set(groups))
    return sorted(s.id for s in found)


def test_a_link_to_a_file_private_by_its_folders_audience_stays_private(tmp_path: Path) -> None:
    kb, settings = _kb(tmp_path)
    ingest([kb / "internal"], settings, audience=["staff"])
    assert _ids(settings) == []
    (kb / "faq" / "pay.md").symlink_to("../internal/pay.md")
    ingest([kb], settings)  # the whole knowledge base, later, without --audience
    assert _ids(settings) == []
    assert _ids(settings, "staff") == ["internal/pay.md#1", "kb/faq/pay.md#1"]


def test_a_link_ingested_with_another_audience_is_narrowed_or_skipped(tmp_path: Path) -> None:
    kb, settings = _kb(tmp_path)
    ingest([kb / "internal"], settings, audience=["staff", "hr"])
    (kb / "faq" / "pay.md").symlink_to("../internal/pay.md")
    (kb / "faq" / "board.md").symlink_to("../internal/pay.md")
    ingest([kb], settings)  # so that kb/faq's links may lead into kb/internal
    assert _ids(settings) == []
    report = ingest([kb / "faq"], settings, audience=["hr", "board"])
    assert report.indexed == 2
    assert _ids(settings, "board") == []
    assert _ids(settings, "hr") == ["internal/pay.md#1", "kb/faq/board.md#1", "kb/faq/pay.md#1"]
    report = ingest([kb / "faq"], settings, audience=["board"])
    assert sorted((s.path, s.reason) for s in report.skipped) == [
        (f"faq/{name}.md", "a link for board to a file for staff, hr: no group may see both")
        for name in ("board", "pay")
    ]


def test_a_runs_own_audience_is_the_targets_inside_its_folders(tmp_path: Path) -> None:
    """``--audience public`` over the whole folder widens on purpose, the link's target too."""
    kb, settings = _kb(tmp_path)
    ingest([kb / "internal"], settings, audience=["staff"])
    (kb / "faq" / "pay.md").symlink_to("../internal/pay.md")
    ingest([kb], settings, audience=["public"])
    assert _ids(settings) == ["internal/pay.md#1", "kb/faq/pay.md#1"]


def test_a_target_an_older_citecast_indexed_privately_keeps_the_link_private(
    tmp_path: Path,
) -> None:
    """An older release remembered no folder's ``--audience``: the target's stored audience
    is what the run would give it, so the link takes it too."""
    kb, settings = _kb(tmp_path)
    ingest([kb / "internal"], settings, audience=["staff"])
    conn = sqlite3.connect(settings.path)
    with conn:
        conn.execute("DELETE FROM meta WHERE key LIKE 'audience:%'")
    conn.close()
    (kb / "faq" / "pay.md").symlink_to("../internal/pay.md")
    ingest([kb], settings)
    assert _ids(settings) == []
    assert _ids(settings, "staff") == ["internal/pay.md#1", "kb/faq/pay.md#1"]
