"""A symlink that a run of its parent folder indexed stays indexed, and is described truly.

Found by QA (newqa): with ``kb/faq/pay.md -> ../internal/pay.md`` and a rule ``internal/*`` →
staff, ``citecast ingest kb`` indexed the link, then ``citecast ingest kb/faq`` after an edit
of ``kb/faq/one.md`` skipped it as "symlink outside the ingested folder" and removed it (and
its id), though the README promises a file keeps its id when re-ingested through a
subfolder: the check only looked at this run's root. A first run of ``kb/faq`` alone must
still skip the link, which leads out of every folder ingested. An unchanged second
``citecast ingest kb`` also said the link had "no front matter audience or matching rule",
though the target's rule gave it its audience: only the link's own path's rules were counted.
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from bot.config import AudienceRule, IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.ingest_file import fingerprint_options, reader_mark
from bot.knowledge.walk import OUTSIDE_ROOT

NO_RULE = "without a front matter audience or a matching rule"


def _kb(tmp_path: Path) -> tuple[Path, IndexSettings]:
    kb = tmp_path / "kb"
    (kb / "internal").mkdir(parents=True)
    (kb / "faq").mkdir()
    (kb / "internal" / "pay.md").write_text("The walrus salary is 9000 euros.\n")
    (kb / "faq" / "one.md").write_text("The ferry leaves at noon.\n")
    (kb / "faq" / "pay.md").symlink_to("../internal/pay.md")
    settings = IndexSettings(
        path=str(tmp_path / "i.db"),
        audience_rules=[AudienceRule(glob="internal/*", audience=["staff"])],
    )
    return kb, settings


def _ids(settings: IndexSettings, query: str, viewer: str) -> list[str]:
    index = KnowledgeIndex(settings.path)
    try:
        return [source.id for source in index.search(query, audience=[viewer])]
    finally:
        index.close()


def test_re_ingesting_a_subfolder_keeps_a_link_a_run_of_its_parent_indexed(
    tmp_path: Path,
) -> None:
    kb, settings = _kb(tmp_path)
    ingest([kb], settings)
    before = sorted(_ids(settings, "walrus salary", "staff"))
    assert before == ["kb/faq/pay.md#1", "kb/internal/pay.md#1"]
    (kb / "faq" / "one.md").write_text("The ferry leaves at one.\n")
    report = ingest([kb / "faq"], settings)  # only one.md changed
    assert (report.removed, report.skipped, report.unchanged) == (0, [], 1)
    assert sorted(_ids(settings, "walrus salary", "staff")) == before
    # still only for staff: the target's rule is found through the folder kb
    assert _ids(settings, "walrus salary", "public") == []


def test_a_first_run_of_the_subfolder_alone_still_skips_the_link(tmp_path: Path) -> None:
    kb, settings = _kb(tmp_path)
    report = ingest([kb / "faq"], settings)
    assert [(s.path, s.reason) for s in report.skipped] == [("faq/pay.md", OUTSIDE_ROOT)]
    assert _ids(settings, "walrus salary", "staff") == []


def test_a_link_out_of_every_ingested_folder_is_skipped_after_a_parent_run(
    tmp_path: Path,
) -> None:
    kb, settings = _kb(tmp_path)
    (tmp_path / "secret.md").write_text("The vault code is 4711.\n")
    (kb / "faq" / "vault.md").symlink_to("../../secret.md")
    report = ingest([kb], settings)
    assert "kb/faq/vault.md" in {s.path for s in report.skipped}
    report = ingest([kb / "faq"], settings)
    assert [(s.path, s.reason) for s in report.skipped] == [("faq/vault.md", OUTSIDE_ROOT)]
    assert _ids(settings, "vault code", "staff") == []


def test_a_linked_private_file_is_not_said_to_have_no_matching_rule(tmp_path: Path) -> None:
    kb, settings = _kb(tmp_path)
    first = ingest([kb], settings)
    again = ingest([kb], settings)  # nothing changed
    for report in (first, again):
        assert [n.reason for n in report.notes if NO_RULE in n.reason] == []


def test_a_link_an_older_citecast_stored_as_taking_the_default_is_not_said_to(
    tmp_path: Path,
) -> None:
    """An index written before the fix holds the link's fingerprint with its "took the
    default" mark; unchanged, the link is not read again, and still no note names it."""
    kb, settings = _kb(tmp_path)
    ingest([kb], settings)
    link = str(kb / "faq" / "pay.md")
    digest = hashlib.sha256((kb / "internal" / "pay.md").read_bytes())
    digest.update(f"|{fingerprint_options(settings)}|staff|None".encode())
    digest.update(f"|link to {(kb / 'internal' / 'pay.md').resolve()}".encode())
    older = digest.copy()
    older.update(b"|default")
    with sqlite3.connect(settings.path) as conn:
        (stored,) = conn.execute("SELECT fingerprint FROM files WHERE path = ?", (link,)).fetchone()
        assert stored == reader_mark() + digest.hexdigest()  # as this citecast writes it
        conn.execute(
            "UPDATE files SET fingerprint = ? WHERE path = ?",
            (reader_mark() + older.hexdigest(), link),
        )
    conn.close()
    report = ingest([kb], settings)
    assert (report.indexed, report.unchanged) == (0, 3)
    assert [n.reason for n in report.notes if NO_RULE in n.reason] == []
