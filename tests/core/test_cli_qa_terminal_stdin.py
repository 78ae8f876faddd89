"""Run bare at a prompt (stdin a terminal), ``render`` says it is reading rather than seeming
to hang; piped input stays silent on stderr."""

from __future__ import annotations

import io
import json
import os
import sys
from collections.abc import Iterator

import pytest

from bot.cli import main

ANSWER = {
    "text": "Fact [^1].",
    "citations": [{"n": 1, "source": {"id": "a", "url": "https://e.com/a"}}],
}
HINT = (
    "citecast render: reading the input from the terminal; paste it, then press Ctrl-D "
    "(or give a file: < FILE)\n"
)


@pytest.fixture
def terminal() -> Iterator[tuple[int, io.TextIOWrapper]]:
    """A pseudo-terminal: the fd to type into, and the terminal as a text stream."""
    typed, tty = os.openpty()
    stream = io.TextIOWrapper(open(tty, "rb"), encoding="utf-8")  # noqa: SIM115
    try:
        yield typed, stream
    finally:
        stream.close()
        os.close(typed)


def test_render_at_a_prompt_says_it_is_reading_the_terminal(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    terminal: tuple[int, io.TextIOWrapper],
) -> None:
    typed, stream = terminal
    # what a person pastes, then Ctrl-D (end of input) on a line of its own
    os.write(typed, json.dumps(ANSWER, indent=1).encode() + b"\n\x04")
    monkeypatch.setattr(sys, "stdin", stream)
    assert main(["render", "--channel", "discourse"]) == 0
    out, err = capsys.readouterr()
    assert err == HINT
    assert "https://e.com/a" in json.loads(out)["raw"]


def test_piped_input_prints_nothing_on_stderr(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(ANSWER)))
    assert main(["render", "--channel", "discourse"]) == 0
    assert capsys.readouterr().err == ""
