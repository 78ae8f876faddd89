"""``make serve`` runs the sample ingest only while ``examples/`` is there: README's own flow
(ingest your docs with --rebuild, delete examples/) left it stopping at
``citecast ingest: examples/: no such file or folder`` before the server started.

The recipe is run for real by make, with a stand-in ``citecast`` that notes its arguments.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STAND_IN = '#!/bin/sh\necho "$@" >> "$(dirname "$0")/calls"\n'


def _make_serve(folder: Path) -> list[str]:
    venv = folder / "venv"
    (venv / "bin").mkdir(parents=True)
    (folder / "pyproject.toml").write_text("", encoding="utf-8")
    for name in ("python", "citecast"):
        (venv / "bin" / name).write_text(STAND_IN, encoding="utf-8")
        (venv / "bin" / name).chmod(0o755)
    (venv / ".installed").touch()
    stamp = (folder / "pyproject.toml").stat().st_mtime
    os.utime(venv / ".installed", (stamp + 10, stamp + 10))  # installed after pyproject.toml
    done = subprocess.run(
        ["make", "-f", str(ROOT / "Makefile"), "serve", f"VENV={venv}"],
        capture_output=True,
        text=True,
        check=False,
        cwd=folder,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return (venv / "bin" / "calls").read_text(encoding="utf-8").splitlines()


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_a_clone_with_examples_ingests_them_then_serves(tmp_path: Path) -> None:
    (tmp_path / "examples").mkdir()
    assert _make_serve(tmp_path) == [
        "--config config.yaml ingest examples/ --if-missing",
        "--config config.yaml serve",
    ]


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_without_examples_it_still_serves(tmp_path: Path) -> None:
    assert _make_serve(tmp_path) == ["--config config.yaml serve"]
