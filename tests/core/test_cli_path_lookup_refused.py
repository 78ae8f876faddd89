"""A path that cannot be looked up is one line and status 2, like any other refused file:
inside a folder this user may not search (mode 0o000, or a service's 0o750 folder seen by
another account), a name over the file system's 255 bytes, or a symlink loop. Python 3.11's
``Path.exists()``/``is_dir()``/``resolve()`` raise there instead of answering, which escaped
as a traceback with status 1 (the status ``citecast eval`` keeps for a missed gate). Named on
the command line or in config.yaml (index.path, store.path, web.file_roots) alike.

As root the tests drop the two capabilities that let root search any folder (``setpriv``,
util-linux), so CI running as root meets the modes as a user does.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_CASES = ROOT / "examples" / "eval" / "citations.jsonl"
# root reads every folder; without these two capabilities it meets the modes as others do
NO_OVERRIDE = (
    ["setpriv", "--bounding-set=-dac_override,-dac_read_search"] if os.geteuid() == 0 else []
)


@pytest.fixture
def scratch() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="citecast-locked-"))
    (folder / "locked").mkdir()
    (folder / "locked").chmod(0o000)
    try:
        yield folder
    finally:
        (folder / "locked").chmod(0o755)
        shutil.rmtree(folder)


def _citecast(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*NO_OVERRIDE, sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=folder,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(folder)},
    )


@pytest.mark.parametrize(
    "args",
    [
        ["eval", str(SAMPLE_CASES), "--out", "locked/report.html"],
        ["eval", "locked/cases.jsonl"],
        ["--config", "locked/config.yaml", "ask", "How do I install it?"],
        ["ingest", "locked/guide.md"],
    ],
    ids=["eval-out", "eval-data", "config", "ingest-path"],
)
def test_a_path_in_a_folder_that_cannot_be_searched_is_one_line(
    scratch: Path, args: list[str]
) -> None:
    done = _citecast(scratch, *args)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "locked/" in lines[0]


LONG = "a" * 300  # one name over NAME_MAX (255): stat fails with ENAMETOOLONG


@pytest.mark.parametrize(
    "args",
    [
        ["eval", f"{LONG}.jsonl"],
        ["eval", str(SAMPLE_CASES), "--out", f"{LONG}.html"],
        ["ingest", LONG],
        ["--config", f"{LONG}.yaml", "ask", "How do I install it?"],
    ],
    ids=["eval-data", "eval-out", "ingest-path", "config"],
)
def test_a_name_too_long_for_the_file_system_is_one_line(scratch: Path, args: list[str]) -> None:
    done = _citecast(scratch, *args)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["preview", "--answer", "loop-a"],
        ["eval", str(SAMPLE_CASES), "--out", "loop-a"],
    ],
    ids=["preview-answer", "eval-out"],
)
def test_a_symlink_loop_is_one_line(scratch: Path, args: list[str]) -> None:
    (scratch / "loop-a").symlink_to("loop-b")
    (scratch / "loop-b").symlink_to("loop-a")
    done = _citecast(scratch, *args)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


@pytest.mark.parametrize(
    ("setting", "args"),
    [
        ("index:\n  path: locked/index.db\n", ["ask", "How do I install it?"]),
        ("index:\n  path: locked/index.db\n", ["ingest", str(ROOT / "examples")]),
        ("store:\n  path: locked/store.db\n", ["report"]),
    ],
    ids=["index-ask", "index-ingest", "store-report"],
)
def test_a_configured_path_in_a_folder_that_cannot_be_searched_is_one_line(
    scratch: Path, setting: str, args: list[str]
) -> None:
    (scratch / "config.yaml").write_text(setting, encoding="utf-8")
    done = _citecast(scratch, *args)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "locked/" in lines[0] and "cannot look it up: permission denied" in lines[0]


def test_a_file_root_in_a_symlink_loop_stops_serve_with_one_line(tmp_path: Path) -> None:
    from bot.commands.serve_warnings import missing_file_roots
    from bot.config import Settings
    from bot.errors import ConfigError

    (tmp_path / "loop-a").symlink_to("loop-b")
    (tmp_path / "loop-b").symlink_to("loop-a")
    settings = Settings.model_validate({"web": {"file_roots": [str(tmp_path / "loop-a")]}})
    with pytest.raises(
        ConfigError, match=r"web\.file_roots: .*loop-a: cannot look it up: a symlink loop"
    ):
        missing_file_roots(settings)


def test_an_os_error_no_check_names_is_still_one_line(scratch: Path) -> None:
    """The last resort in ``citecast``'s main: ``serve`` looks its index up where no path
    check of its own stands, and a folder it cannot search is still one line, status 2."""
    setting = "index:\n  path: locked/index.db\nweb:\n  port: 0\n"
    (scratch / "config.yaml").write_text(setting, encoding="utf-8")
    done = subprocess.run(
        [*NO_OVERRIDE, sys.executable, "-m", "bot", "serve"],
        capture_output=True,
        text=True,
        check=False,
        cwd=scratch,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(scratch)},
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (
        2,
        "citecast serve: locked/index.db: permission denied\n",
    )
