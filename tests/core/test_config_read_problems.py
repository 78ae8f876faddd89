"""A config file that cannot be read, or a value an environment variable made, says why in the
file's words.

Found in a QA pass of the command line: ``web.port: ${PORT}`` with ``PORT=abc`` said only
"web.port: Input should be a valid integer" (the file shows ``${PORT}``, not ``abc``, and only
an *unset* variable was named); an unreadable file printed Python's ``[Errno 13] Permission
denied: 'config.yaml'`` (the file named twice); a Latin-1 or UTF-16 file gave the codec's
"can't decode byte 0xff in position 0"; and a Tab in the indentation gave only PyYAML's
"found character '\\t' that cannot start any token".
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from bot.cli import main


def _error(capsys: pytest.CaptureFixture[str], config: Path | str) -> str:
    assert main(["--config", str(config), "ask", "How do I install it?"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "Traceback" not in captured.err
    assert captured.err.count("\n") == 1
    return captured.err


@pytest.fixture
def port_from_env(tmp_path: Path) -> Path:
    config = tmp_path / "config.yaml"
    config.write_text("web:\n  port: ${CITECAST_TEST_PORT}\n", encoding="utf-8")
    return config


def test_a_refused_value_from_a_set_variable_names_the_variable(
    port_from_env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CITECAST_TEST_PORT", "eighty")
    err = _error(capsys, port_from_env)
    assert err.startswith(f"citecast ask: {port_from_env}: web.port: ")
    assert err.endswith(" (from ${CITECAST_TEST_PORT})\n")
    assert "eighty" not in err  # a variable's value may be a secret: named, never quoted


def test_a_refused_value_from_an_empty_variable_says_it_is_empty(
    port_from_env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CITECAST_TEST_PORT", "")
    assert _error(capsys, port_from_env).endswith(" (${CITECAST_TEST_PORT} is empty)\n")


def test_a_default_in_the_file_that_is_refused_gets_no_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CITECAST_TEST_PORT", raising=False)
    config = tmp_path / "config.yaml"
    config.write_text("web:\n  port: ${CITECAST_TEST_PORT:-eighty}\n", encoding="utf-8")
    err = _error(capsys, config)
    assert "web.port: " in err
    assert "CITECAST_TEST_PORT" not in err  # the value is the file's own, as written


def test_a_file_that_cannot_be_opened_is_named_once_without_an_errno(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # a socket cannot be opened even by root (as a file without read permission can)
    monkeypatch.chdir(tmp_path)  # a short relative name: socket paths are limited in length
    listener = socket.socket(socket.AF_UNIX)
    try:
        listener.bind("config.yaml")
        err = _error(capsys, "config.yaml")
    finally:
        listener.close()
    assert err == "citecast ask: config.yaml: cannot read: no such device or address\n"


def test_a_file_that_is_not_utf8_names_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.yaml"
    config.write_bytes('web:\n  host: "café"\n'.encode("latin-1"))
    assert _error(capsys, config) == (
        f"citecast ask: {config}: not valid UTF-8 (line 2): invalid continuation byte\n"
    )


def test_a_file_saved_as_utf16_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.yaml"
    config.write_bytes("web:\n  port: 8001\n".encode("utf-16"))  # with its byte order mark
    assert _error(capsys, config) == f"citecast ask: {config}: saved as UTF-16; save it as UTF-8\n"


def test_a_tab_in_the_indentation_says_to_use_spaces(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("web:\n\tport: 8001\n", encoding="utf-8")
    err = _error(capsys, config)
    assert err.startswith(f"citecast ask: {config}: not valid YAML: line 2, column 1: ")
    assert err.endswith("; use spaces there, not a tab (YAML indents with spaces only)\n")
