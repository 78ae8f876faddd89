"""A path through a symlink loop stops ``citecast serve`` with one line and status 2.

Found by the security review: ``web.file_roots: [loop/docs]`` escaped from the file signer's
roots (``Path.resolve()`` raises RuntimeError for a loop) and ``index.path: loop/index.db``
from the check that the index is private, each a traceback with status 1, where the changelog
promises one line and status 2. ``citecast``'s main names any other loop pathlib meets.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

import bot.cli
from bot.cli import build_parser, main
from bot.config import IndexSettings
from bot.errors import ConfigError, ValidationError
from bot.filetokens import FileSigner
from bot.knowledge import ingest
from bot.private_files import readable_by_others

SECRET = b"0123456789abcdef0123456789abcdef"


@pytest.fixture
def loop(tmp_path: Path) -> Path:
    """``tmp_path/loop``, a symlink to itself."""
    (tmp_path / "loop").symlink_to("loop")
    return tmp_path / "loop"


@pytest.mark.parametrize(
    ("section", "named"),
    [
        ("web:\n  file_roots: [loop/docs]\nindex:\n  path: index.db\n", "loop/docs"),
        ("index:\n  path: loop/index.db\n", "loop/index.db"),
    ],
    ids=["web.file_roots", "index.path"],
)
def test_serve_names_a_symlink_loop_in_one_line(
    tmp_path: Path,
    loop: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    section: str,
    named: str,
) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "a.md").write_text("# A\n\nSome text.\n", encoding="utf-8")
    ingest([kb], IndexSettings(path=str(tmp_path / "index.db")))
    config = tmp_path / "config.yaml"
    config.write_text(section + "store:\n  path: store.db\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()

    status = main(["--config", str(config), "serve", "--port", "0"])

    err = capsys.readouterr().err
    assert status == 2, err
    assert err.endswith(f"citecast serve: {tmp_path / named}: cannot look it up: a symlink loop\n")
    assert "Traceback" not in err


def test_a_file_root_through_a_loop_is_a_config_error(loop: Path) -> None:
    with pytest.raises(ConfigError, match=r"loop/docs: cannot look it up: a symlink loop$"):
        FileSigner(SECRET, "http://127.0.0.1", 60, roots=[loop / "docs"])
    signer = FileSigner(SECRET, "http://127.0.0.1", 60)
    with pytest.raises(ConfigError, match="a symlink loop"):
        signer.add_root(loop / "docs")
    assert signer.roots == ()


def test_readable_by_others_names_a_loop(loop: Path) -> None:
    with pytest.raises(ValidationError, match=r"loop/index\.db: cannot look it up: a symlink loop"):
        readable_by_others(loop / "index.db")


def _parser_running(run: object) -> argparse.ArgumentParser:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            action.choices["report"].set_defaults(run=run)
    return parser


def test_main_names_a_loop_no_check_named(
    loop: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def run(_: argparse.Namespace) -> int:
        (loop / "x").resolve()  # where no check of a command's own looked first
        return 0

    monkeypatch.setattr(bot.cli, "build_parser", lambda: _parser_running(run))
    assert main(["report"]) == 2
    assert capsys.readouterr().err == (
        f"citecast report: {loop / 'x'}: cannot look it up: a symlink loop\n"
    )


def test_main_keeps_the_traceback_of_another_runtime_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def run(_: argparse.Namespace) -> int:
        raise RuntimeError("dictionary changed size during iteration")

    monkeypatch.setattr(bot.cli, "build_parser", lambda: _parser_running(run))
    with pytest.raises(RuntimeError, match="dictionary changed size"):
        main(["report"])
