"""``citecast serve`` on an index an older citecast read says so at start, once.

Found on upgrade QA: the server kept answering from what the old release's reader made of the
files (HTML tables quoted without their header row) until someone ran ``citecast ingest``,
and nothing said so.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.knowledge import ingest
from tests.core.serve_process import serving

ingest_module = importlib.import_module("bot.knowledge.ingest_file")
OLDER = "indexed files were read by an older citecast"


@pytest.mark.parametrize("current", [False, True], ids=["older reader", "current"])
def test_serve_warns_once_when_files_were_read_by_an_older_citecast(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, current: bool
) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "returns.md").write_text("# Returns\n\nHeron returns cost 5 EUR.\n", "utf-8")
    (kb / "ops.md").write_text("# Ops\n\nEgret sends are retried 5 times.\n", "utf-8")
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    with monkeypatch.context() as older:
        older.setattr(ingest_module, "READER_VERSION", "10")  # yesterday's release
        ingest([kb], settings)
    if current:
        ingest([kb], settings)
    config = tmp_path / "config.yaml"
    config.write_text(f"index:\n  path: {settings.path}\nweb:\n  port: 0\n", encoding="utf-8")
    with serving(config, tmp_path) as lines:
        pass
    assert any("listening on" in line for line in lines), "".join(lines)
    warnings = [line for line in lines if "WARNING" in line and OLDER in line]
    if current:
        assert warnings == []
        return
    assert len(warnings) == 1, "".join(lines)
    assert (
        warnings[0]
        .rstrip()
        .endswith(
            f"2 of 2 {OLDER}, which reads some files differently: until they are read again, "
            "their audiences and links may be wrong (a file this citecast makes private may "
            f"still be shown to everyone); run `citecast --config {config} ingest kb` to "
            "re-read them (unchanged files are skipped)"
        )
    )
