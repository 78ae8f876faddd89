"""``citecast preview --out F`` leaves F old or whole-new, never cut off part-way.

Found in a review of the CLI: the page was written into F itself, so a write that failed
part-way (a full disk, a quota) left a truncated page behind, with the old one gone.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main

ROOT = Path(__file__).resolve().parents[2]
OLD = "<p>the old page</p>\n"
LIMIT = 8192  # bytes a process may write into one file; the sample page is about 24 KB

# The process's file-size limit (RLIMIT_FSIZE) makes the kernel refuse a write past LIMIT
# bytes (EFBIG) after taking the first LIMIT: a real write that fails part-way, as on a full
# disk, without a full disk. SIGXFSZ is ignored so that the write fails rather than kills.
LIMITED = f"""\
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, ({LIMIT}, {LIMIT}))
from bot.cli import main
raise SystemExit(main(sys.argv[1:]))
"""


@pytest.fixture(autouse=True)
def _no_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)


def test_a_write_that_fails_part_way_leaves_the_old_page(tmp_path: Path) -> None:
    out = tmp_path / "pages" / "preview.html"
    out.parent.mkdir()
    out.write_text(OLD, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", LIMITED, "preview", "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"},
        timeout=60,
    )
    assert out.read_text(encoding="utf-8") == OLD
    assert os.listdir(out.parent) == ["preview.html"]  # no temporary file left behind
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"citecast preview: cannot write {out}: File too large\n"


def test_the_new_page_replaces_the_old_with_its_permissions_and_through_a_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    real = tmp_path / "site" / "preview.html"
    real.parent.mkdir()
    real.write_text(OLD, encoding="utf-8")
    real.chmod(0o640)
    link = tmp_path / "preview.html"
    link.symlink_to(real)
    assert main(["preview", "--out", "preview.html"]) == 0
    assert capsys.readouterr() == ("preview.html\n", "")
    assert link.is_symlink()  # written through, as opening it would write through
    page = real.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert sorted(os.listdir(real.parent)) == ["preview.html"]


def test_a_named_pipe_is_written_into_not_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "page.fifo"
    os.mkfifo(fifo)
    # A reader that never blocks: the command's open for writing then returns at once, and the
    # page (about 24 KB) fits in the pipe's buffer (64 KB on Linux).
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        assert main(["preview", "--out", str(fifo)]) == 0
        received = os.read(reader, 1 << 20).decode("utf-8")
    finally:
        os.close(reader)
    assert received.startswith("<!DOCTYPE html>") and received.rstrip().endswith("</html>")
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert capsys.readouterr().err == ""
