"""Upgrading a deployment whose config.yaml is not in the folder it ran from.

Older releases took relative paths (index.path, store.path) from the working directory; this
one takes them from the config file's folder. An operator who ran `citecast --config
../cfg/config.yaml ...` from app/ keeps the index and store in app/.citecast: after the upgrade
no command that opens them may silently start a fresh, empty one beside the config (conversations,
votes, share links and the file-link secret would be gone); each stops in one line naming both
places. (Found by the upgrade QA pass; moved here from its test_upgrade_config_elsewhere.py.)
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import StoreSettings
from bot.store import Store
from tests.core.cli_runner import run_cli

CASES = '{"id": "q", "question": "How often do we retry?"}\n'


@pytest.fixture
def upgraded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[Path, Path]:
    """app/ holding what an older release left there (.citecast with index and store), cfg/
    the config without a .citecast of its own; the working directory is app/."""
    app, cfg = tmp_path / "app", tmp_path / "cfg"
    (app / "docs").mkdir(parents=True)
    cfg.mkdir()
    (app / "docs" / "a.md").write_text("# Retries\n\nWe retry 5 times.\n", encoding="utf-8")
    (app / "cases.jsonl").write_text(CASES, encoding="utf-8")
    (cfg / "config.yaml").write_text("web:\n  port: 0\n", encoding="utf-8")
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    monkeypatch.chdir(app)
    # without a config file the defaults are the working directory's: the older layout
    assert main(["ingest", "docs"]) == 0
    Store.from_settings(StoreSettings(path=str(app / ".citecast" / "citecast.db"))).close()
    capsys.readouterr()
    return app, cfg


def left_behind(key: str, app: Path, cfg: Path, name: str, *, store_too: bool = False) -> str:
    """The one line naming ``key`` (and, with ``store_too``, store.path as well: both left
    behind are named at once, so fixing one does not only stop at the other next)."""
    settings = f"{key} to {app / '.citecast' / name}"
    if store_too:
        settings += f" and store.path to {app / '.citecast' / 'citecast.db'}"
    return (
        f"../cfg/config.yaml: {key}: .citecast/{name} is taken from the config file's folder, "
        f"where {cfg / '.citecast' / name} does not exist, but {app / '.citecast' / name} does"
        " (a citecast before 30 November 2026 took it from the working directory); move "
        f"{app / '.citecast'} to {cfg / '.citecast'}, or set {settings}"
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["ingest", "docs", "--if-missing"],
        ["ingest", "docs"],
        ["ask", "How often do we retry?"],
        ["eval", "cases.jsonl"],
        ["report"],
    ],
    ids=["ingest-if-missing", "ingest", "ask", "eval", "report"],
)
def test_a_command_stops_naming_where_the_index_and_store_are(
    upgraded: tuple[Path, Path], capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    app, cfg = upgraded

    status = main(["--config", "../cfg/config.yaml", *argv])

    out, err = capsys.readouterr()
    message = left_behind("index.path", app, cfg, "index.db", store_too=True)
    assert (status, out, err) == (2, "", f"citecast {argv[0]}: {message}\n")
    assert not (cfg / ".citecast").exists()  # nothing started beside the config


def test_serve_stops_before_it_creates_a_store_or_a_file_secret(
    upgraded: tuple[Path, Path],
) -> None:
    app, cfg = upgraded
    command = [sys.executable, "-m", "bot", "--config", "../cfg/config.yaml", "serve"]
    # a server that starts anyway (the fault) is stopped by the timeout, failing the test
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=app)
    message = left_behind("index.path", app, cfg, "index.db", store_too=True)
    assert (done.returncode, done.stderr) == (2, f"citecast serve: {message}\n")
    assert not (cfg / ".citecast").exists()


def test_a_store_left_behind_is_named_when_the_index_was_built_beside_the_config(
    upgraded: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    app, cfg = upgraded
    (cfg / ".citecast").mkdir()
    (app / ".citecast" / "index.db").rename(cfg / ".citecast" / "index.db")

    assert main(["--config", "../cfg/config.yaml", "report"]) == 2

    message = left_behind("store.path", app, cfg, "citecast.db")
    assert capsys.readouterr().err == f"citecast report: {message}\n"
    assert not (cfg / ".citecast" / "citecast.db").exists()


def test_the_index_beside_the_config_is_used_whatever_the_working_directory_holds(
    upgraded: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    app, cfg = upgraded
    (cfg / ".citecast").mkdir()
    for name in ("index.db", "citecast.db"):
        (cfg / ".citecast" / name).write_bytes((app / ".citecast" / name).read_bytes())

    assert main(["--config", "../cfg/config.yaml", "ingest", "docs", "--if-missing"]) == 0
    assert main(["--config", "../cfg/config.yaml", "report"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("index ../cfg/.citecast/index.db exists (1 file"), (out, err)


def test_absolute_paths_are_taken_as_written(
    upgraded: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, cfg = upgraded
    new = cfg / "data"
    (cfg / "config.yaml").write_text(
        f"index:\n  path: {new / 'index.db'}\nstore:\n  path: {new / 'citecast.db'}\n",
        encoding="utf-8",
    )
    new.mkdir()

    assert main(["--config", "../cfg/config.yaml", "ingest", "docs", "--if-missing"]) == 0

    assert (new / "index.db").exists(), capsys.readouterr()


def test_the_config_in_the_working_directory_reads_its_own_folder(
    upgraded: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    app, cfg = upgraded
    (app / "config.yaml").write_text("web:\n  port: 0\n", encoding="utf-8")

    assert main(["--config", "config.yaml", "ingest", "docs", "--if-missing"]) == 0
    assert main(["--config", str(app / "config.yaml"), "report"]) == 0

    out, err = capsys.readouterr()
    assert out.startswith("index .citecast/index.db exists (1 file"), (out, err)
    assert not (cfg / ".citecast").exists()


def test_render_opens_neither_and_is_not_stopped(
    upgraded: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # `citecast resolve ... | citecast render` reads no index or store: it works as before
    argv = ["--config", "../cfg/config.yaml", "render", "--channel", "web"]
    status, out, err = run_cli(monkeypatch, capsys, argv, '{"text": "We retry 5 times."}')
    assert (status, err) == (0, "") and "We retry 5 times." in out, (out, err)
