"""``citecast ask`` and ``eval`` on an index an older citecast read warn as ``serve`` does.

Found on upgrade QA: after upgrading, `citecast ask` answered (for the public) from a file the
new reader keeps for staff, since the index still held what the old reader made of it, and
only ``serve`` said that files waited to be read again.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import IndexSettings
from bot.knowledge import ingest

ingest_module = importlib.import_module("bot.knowledge.ingest_file")


@pytest.mark.parametrize("current", [False, True], ids=["older reader", "current"])
def test_ask_warns_on_stderr_while_files_wait_to_be_read_again(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    current: bool,
) -> None:
    monkeypatch.chdir(tmp_path)
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "returns.md").write_text("# Returns\n\nHeron returns cost 5 EUR.\n", "utf-8")
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    with monkeypatch.context() as older:
        older.setattr(ingest_module, "READER_VERSION", "10")  # yesterday's release
        ingest([kb], settings)
    if current:
        ingest([kb], settings)
    config = tmp_path / "config.yaml"
    config.write_text(f"index:\n  path: {settings.path}\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["--config", str(config), "ask", "What do heron returns cost?"]) == 0
    out, err = capsys.readouterr()
    assert "5 EUR" in out  # it answers all the same
    if current:
        assert err == ""
        return
    assert err == (
        "citecast ask: warning: 1 of 1 indexed files were read by an older citecast, which "
        "reads some files differently: until they are read again, their audiences and links "
        "may be wrong (a file this citecast makes private may still be shown to everyone); "
        f"run `citecast --config {config} ingest kb` to re-read them (unchanged files are "
        "skipped)\n"
    )
