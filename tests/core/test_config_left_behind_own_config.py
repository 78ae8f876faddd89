"""A clone's own ``.citecast`` is not data an older citecast left behind.

Found by the security review: in a clone where ``make serve`` ran, ``make serve
CONFIG=/srv/x/config.yaml`` or ``citecast --config ../srv/config.yaml ingest --if-missing
../srv/kb`` stopped with status 2 and told the operator to move the clone's ``.citecast`` (the
sample index, store and file-link secret) into the new deployment. A working directory with a
``config.yaml`` of its own is where that config's data lives; the releases before 30 November
2026 left data in a working folder without one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.config_file import load_settings


@pytest.fixture
def clone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``clone/`` with its own config.yaml and the index `make serve` built beside it, as the
    working directory; ``srv/`` a deployment with a config of its own and a knowledge base."""
    clone = tmp_path / "clone"
    (clone / ".citecast").mkdir(parents=True)
    (clone / "config.yaml").write_text("web:\n  title: Sample\n", encoding="utf-8")
    (clone / ".citecast" / "index.db").write_bytes(b"")
    srv = tmp_path / "srv"
    (srv / "kb").mkdir(parents=True)
    (srv / "kb" / "a.md").write_text("# Retries\n\nWe retry 5 times.\n", encoding="utf-8")
    (srv / "config.yaml").write_text("web:\n  title: Mine\n", encoding="utf-8")
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    monkeypatch.chdir(clone)
    return clone


def test_another_deployment_s_paths_are_its_own(clone: Path) -> None:
    srv = clone.parent / "srv"
    settings = load_settings(srv / "config.yaml", opens_data=True)
    assert Path(settings.index.path) == srv / ".citecast" / "index.db"


def test_ingest_if_missing_builds_the_other_deployment_s_index(
    clone: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["--config", "../srv/config.yaml", "ingest", "--if-missing", "../srv/kb"])
    err = capsys.readouterr().err
    assert status == 0, err
    assert (clone.parent / "srv" / ".citecast" / "index.db").stat().st_size > 0
    assert (clone / ".citecast" / "index.db").stat().st_size == 0  # the clone's, untouched


def test_a_working_folder_without_a_config_is_still_refused(
    clone: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (clone / "config.yaml").unlink()
    assert main(["--config", "../srv/config.yaml", "ingest", "--if-missing", "../srv/kb"]) == 2
    err = capsys.readouterr().err
    assert "(a citecast before 30 November 2026 took it from the working directory)" in err
    assert not (clone.parent / "srv" / ".citecast").exists()
