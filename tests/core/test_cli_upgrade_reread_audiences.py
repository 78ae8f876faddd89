"""After an upgrade, ``make serve``'s ``citecast --config CONFIG ingest --if-missing`` re-reads
the files an older citecast indexed as public, with this release's audience rules.

Found in an upgrade QA (old release -> main, same deployment folder): this release fixed
audience rules (``internal/*`` applies when ``ingest teamdocs/internal`` is run; a group name
holding ``|`` is refused) but kept reader version "14", so ``--if-missing`` re-read nothing and
the files the old code stored as public stayed public. And ``make serve`` runs from the
repository clone, not the deployment folder: the rules' "folders above" stopped at the working
directory, so even a re-read found no rule. The index here is written as the old release wrote
it: fingerprints marked ``r14:``, audiences public (and one ``|staff|public|`` from front matter
``audience: "staff|public"``, which the old release split into two groups).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.knowledge import ingest
from bot.knowledge.ingest import reader_mark
from tests.core.cli_runner import run_cli

OLD_MARK = "r14:"  # what the release before this one wrote


def _rows(index: Path) -> dict[str, tuple[str, str]]:
    """relpath -> (fingerprint, audience) of every indexed file."""
    conn = sqlite3.connect(index)
    try:
        rows = conn.execute(
            "SELECT f.relpath, f.fingerprint, c.audience FROM files f "
            "JOIN chunks c ON c.file_id = f.id GROUP BY f.id"
        ).fetchall()
    finally:
        conn.close()
    return {str(r[0]): (str(r[1]), str(r[2])) for r in rows}


def _as_the_old_release_wrote_it(index: Path, audiences: dict[str, str]) -> None:
    conn = sqlite3.connect(index)
    try:
        conn.execute(
            "UPDATE files SET fingerprint = ? || substr(fingerprint, instr(fingerprint, ':') + 1)",
            (OLD_MARK,),
        )
        for relpath, audience in audiences.items():
            conn.execute(
                "UPDATE chunks SET audience = ? WHERE file_id = "
                "(SELECT id FROM files WHERE relpath = ?)",
                (audience, relpath),
            )
        conn.commit()
    finally:
        conn.close()


def _deploy(tmp_path: Path, index_keys: str = "") -> tuple[Path, Path]:
    """A deploy folder holding ``teamdocs/internal/pay.md`` and a config.yaml whose rule gives
    ``internal/*`` to staff (after ``index_keys``): the internal folder and the config."""
    deploy = tmp_path / "deploy"
    internal = deploy / "teamdocs" / "internal"
    internal.mkdir(parents=True)
    (internal / "pay.md").write_text("# Pay\n\nThe walrus salary is 9000 euros.\n")
    config = deploy / "config.yaml"
    config.write_text(
        f"index:\n{index_keys}  audience_rules:\n    - glob: 'internal/*'\n"
        "      audience: [staff]\n",
        "utf-8",
    )
    return internal, config


def test_make_serve_rereads_an_old_index_from_the_clone_with_the_current_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    internal, config = _deploy(tmp_path, "  path: .citecast/index.db\n")
    deploy = config.parent
    (internal / "split.md").write_text("# Split\n\nThe heron bonus is paid in June.\n")
    index = deploy / ".citecast" / "index.db"
    # `cd deploy && citecast ingest teamdocs/internal`, as the old release read it: public
    monkeypatch.chdir(deploy)
    ingest(["teamdocs/internal"], IndexSettings(path=str(index)))
    (internal / "split.md").write_text(
        '---\naudience: "staff|public"\n---\n# Split\n\nThe heron bonus is paid in June.\n'
    )
    _as_the_old_release_wrote_it(
        index, {"internal/pay.md": "|public|", "internal/split.md": "|staff|public|"}
    )
    clone = tmp_path / "clone"  # make serve runs from the repository clone
    (clone / "examples").mkdir(parents=True)
    (clone / "examples" / "sample.md").write_text("# Sample\n\nA sample page.\n")
    monkeypatch.chdir(clone)

    argv = ["--config", str(config), "ingest", "--if-missing", "examples"]
    code, out, err = run_cli(monkeypatch, capsys, argv)
    assert code == 0, err
    rows = _rows(index)
    assert rows["internal/pay.md"][1] == "|staff|"
    assert rows["internal/pay.md"][0].startswith(reader_mark())
    # the '|' group is refused now: the file is skipped with the reason and leaves the index
    assert "internal/split.md" not in rows
    assert (
        "  skipped split.md: | in a group name in front matter audience 'staff|public'; "
        "separate groups with commas\n"
    ) in out
    assert "examples/sample.md" not in rows


def test_a_private_folder_ingested_from_elsewhere_is_ruled_from_the_config_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    internal, config = _deploy(tmp_path)
    deploy = config.parent
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    argv = ["--config", str(config), "ingest", str(internal)]
    code, out, err = run_cli(monkeypatch, capsys, argv)
    assert code == 0, err
    assert _rows(deploy / ".citecast" / "index.db")["internal/pay.md"][1] == "|staff|"
    assert "matched no file" not in out
