"""``citecast ask`` refuses a question longer than ``web.max_question_chars``, as the web chat and
``POST /api/ask`` do.

Found in a QA pass of the command line: ``citecast ask "$(cat manual.txt)"`` sent the whole
text (up to the 128 KB the shell passes in one argument) to the assistant, where every channel
takes at most ``web.max_question_chars`` (4,000) of a question.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "install.md").write_text("# Install\n\nRun the installer.\n")
    (tmp_path / "config.yaml").write_text("web:\n  max_question_chars: 100\n", encoding="utf-8")
    assert main(["ingest", "docs"]) == 0
    return tmp_path


def test_a_question_over_the_limit_is_refused_in_one_line(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["ask", "How do I install it? " + "x" * 200]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "citecast ask: question is 221 characters long; at most 100 are taken "
        "(web.max_question_chars)\n"
    )


def test_a_question_at_the_limit_is_answered(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    # 100 characters once composed (NFC), as the web chat counts them; 150 as typed here
    question = "  How do I install it? " + "e\u0301" * 50 + "x" * 29 + "  "
    assert main(["ask", question]) == 0
    assert capsys.readouterr().err == ""
