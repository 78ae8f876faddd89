"""``citecast ask`` prints the answer as plain text: the backslashes Markdown needs to show a
document's ``arr[1]`` or ``[1]`` as written are not printed (found in a QA pass: ``ask`` printed
``arr\\[1\\] returns…`` and ``replaced yearly \\[1\\] [2]``), while code keeps its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.commands.ask import plain_text
from bot.models import Answer, Citation, Source

ARRAYS = "# Arrays\n\nIn the quokka language the expression arr[1] returns the second element.\n"


def test_ask_prints_a_quoted_index_without_markdown_escapes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "arrays.md").write_text(ARRAYS, encoding="utf-8")
    config = tmp_path / "config.yaml"
    config.write_text(f"index:\n  path: {tmp_path / 'index.db'}\n", encoding="utf-8")
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    capsys.readouterr()

    question = "What does arr[1] return in the quokka language?"
    assert main(["--config", str(config), "ask", question, "--json"]) == 0
    assert "arr\\\\[1\\\\]" in capsys.readouterr().out  # the answer's Markdown escapes it
    assert main(["--config", str(config), "ask", question]) == 0
    text = capsys.readouterr().out.partition("\n\nSources:\n")[0]
    assert text == (
        "In the quokka language the expression arr[1] returns the second element [1]."
    ), text


def test_code_keeps_its_backslashes_and_weak_marks_stay() -> None:
    guide = Source(id="g", title="Guide", url="https://docs.example.com/guide")
    answer = Answer(
        text=(
            "Search the log for \\[error\\] lines [^1]:\n\n"
            '```sh\ngrep "\\[error\\]" app.log\n```\n\n'
            "or run `grep \\[error\\]` [^1]."
        ),
        citations=(Citation(n=1, source=guide, source_number=1, support=0.1),),
    )
    text = plain_text(answer).partition("\n\nSources:\n")[0]
    assert text == (
        "Search the log for [error] lines [1?]:\n\n"
        '```sh\ngrep "\\[error\\]" app.log\n```\n\n'
        "or run `grep \\[error\\]` [1?]."
    )
