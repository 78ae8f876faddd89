"""The schema refusal of `serve`, `ask` and `eval` names the --config the operator gave.

`citecast ingest` says `citecast --config FILE ingest --rebuild ...`; `serve` and `ask` said
`citecast ingest --rebuild ...`, which, run from a folder without that config (a systemd unit's
WorkingDirectory, the repository clone with its sample config.yaml), rebuilds another index
and leaves the refused one as it was. (Found by the upgrade QA pass.)
"""

from __future__ import annotations

import shlex
import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import IndexSettings
from bot.knowledge import ingest


@pytest.fixture
def old_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """srv/config.yaml and, beside it, a schema 3 index of srv/kb; the working directory is
    another folder, holding only the cases of `eval`."""
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    srv, elsewhere = tmp_path / "my srv", tmp_path / "elsewhere"
    (srv / "kb").mkdir(parents=True)
    elsewhere.mkdir()
    (srv / "kb" / "a.md").write_text("# Retries\n\nWe retry 5 times.\n", encoding="utf-8")
    (srv / "config.yaml").write_text("web:\n  port: 0\n", encoding="utf-8")
    (elsewhere / "cases.jsonl").write_text(
        '{"id": "q", "question": "How often do we retry?"}\n', encoding="utf-8"
    )
    index = srv / ".citecast" / "index.db"
    index.parent.mkdir()
    ingest([srv / "kb"], IndexSettings(path=str(index)))
    with sqlite3.connect(index) as conn:
        conn.execute("PRAGMA user_version = 3")
    conn.close()
    monkeypatch.chdir(elsewhere)
    return srv / "config.yaml"


@pytest.mark.parametrize(
    "argv",
    [["serve"], ["ask", "How often do we retry?"], ["eval", "cases.jsonl"], ["ingest", "x"]],
    ids=["serve", "ask", "eval", "ingest"],
)
def test_the_rebuild_command_carries_the_config(
    old_index: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    Path("x").mkdir()  # what `ingest` is given: it stops at the index all the same

    assert main(["--config", str(old_index), *argv]) == 2

    err = capsys.readouterr().err
    # quoted for the shell: the folder's name has a space in it
    config, kb = shlex.quote(str(old_index)), shlex.quote(str(old_index.parent / "kb"))
    command = f"`citecast --config {config} ingest --rebuild {kb}`"
    assert err.startswith(f"citecast {argv[0]}: ") and command in err, err


def test_without_config_the_command_stays_as_it_was(
    old_index: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(old_index.parent)

    assert main(["ask", "How often do we retry?"]) == 2

    err = capsys.readouterr().err
    assert err.endswith("rebuild it: `citecast ingest --rebuild kb`\n"), err
