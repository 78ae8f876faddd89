"""A read-only ``--out`` file (mode 0o444) is refused by ``preview`` as by ``eval``: preview
renamed its new page over it (only the folder's permission counts for a rename), so the file
its owner had made read-only was replaced without a word, while ``eval --out`` said
``cannot write F: Permission denied``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_CASES = ROOT / "examples" / "eval" / "citations.jsonl"
OLD = "<p>kept</p>\n"
# root writes every file; without this capability it meets the modes as others do
NO_OVERRIDE = ["setpriv", "--bounding-set=-dac_override"] if os.geteuid() == 0 else []


@pytest.mark.parametrize(
    "args",
    [["preview"], ["eval", str(SAMPLE_CASES)]],
    ids=["preview", "eval"],
)
def test_a_read_only_out_file_is_refused_and_kept(tmp_path: Path, args: list[str]) -> None:
    out = tmp_path / "ro.html"
    out.write_text(OLD, encoding="utf-8")
    out.chmod(0o444)
    done = subprocess.run(
        [*NO_OVERRIDE, sys.executable, "-m", "bot", *args, "--out", "ro.html"],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines()[-1] == (
        f"citecast {args[0]}: cannot write ro.html: Permission denied"
    )
    assert out.read_text(encoding="utf-8") == OLD
    assert os.listdir(tmp_path) == ["ro.html"]
