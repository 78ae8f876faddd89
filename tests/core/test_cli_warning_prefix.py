"""``resolve`` and ``eval`` print "dropping unsafe URL from source 'a'" with their name in
front, as ``render`` and ``preview`` do: bare, it was the one line of theirs that named no
command. Run as a user runs them, with no logging configured."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UNSAFE = {"id": "a", "title": "t", "url": "javascript:alert(1)", "text": "Herons wade."}


def _citecast(folder: Path, args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=folder,
        env={"PATH": "/usr/bin:/bin", "HOME": str(folder), "PYTHONPATH": str(ROOT)},
        check=False,
        timeout=120,
    )


def test_resolve_warnings_carry_the_command_prefix(tmp_path: Path) -> None:
    (tmp_path / "sources.json").write_text(json.dumps([UNSAFE]), encoding="utf-8")
    done = _citecast(tmp_path, ["resolve", "--sources", "sources.json"], "Herons wade [a].")
    assert done.returncode == 0, done.stderr
    assert done.stderr == "citecast resolve: dropping unsafe URL from source 'a'\n"


def test_eval_warnings_carry_the_command_prefix(tmp_path: Path) -> None:
    case = {"id": "c", "answer": "Herons wade [1].", "sources": [UNSAFE], "gold_citations": ["a"]}
    (tmp_path / "cases.jsonl").write_text(json.dumps(case) + "\n", encoding="utf-8")
    done = _citecast(tmp_path, ["eval", "cases.jsonl"])
    assert done.returncode == 0, done.stderr
    assert "citecast eval: dropping unsafe URL from source 'a'" in done.stderr.splitlines()
    assert "dropping unsafe URL from source 'a'" not in done.stderr.splitlines()
