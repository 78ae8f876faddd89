"""``citecast preview`` says its warnings as it says every other line: ``citecast preview: …``.

Found in a QA pass: an Answer with a ``javascript:`` URL printed the bare logging line
"dropping unsafe URL from source 'a'" on stderr (as ``render`` did before ``command_warnings``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCE = {"id": "a", "title": "t", "url": "javascript:alert(1)"}
ANSWER = json.dumps({"text": "x [^1].", "citations": [{"n": 1, "source": SOURCE}]})


@pytest.mark.parametrize("answer", ["-", "a.json"], ids=["stdin", "file"])
def test_preview_warnings_carry_the_command_prefix(tmp_path: Path, answer: str) -> None:
    """Run as a user runs it: with no logging configured."""
    (tmp_path / "a.json").write_text(ANSWER)
    done = subprocess.run(
        [sys.executable, "-m", "bot", "preview", "--answer", answer, "--out", "page.html"],
        input=ANSWER,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        # this checkout's code, whatever the environment has installed
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": str(ROOT)},
        check=False,
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (0, "page.html\n"), done.stderr
    assert done.stderr == "citecast preview: dropping unsafe URL from source 'a'\n"
    assert "javascript:" not in (tmp_path / "page.html").read_text()
