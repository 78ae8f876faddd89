"""``citecast serve`` writes each log message on one line, whatever text it holds.

File names, questions, titles and other text from users and documents reach log messages in
many channels. A line break in one (``a.md\\n<date> INFO citecast: ...``) forged a log line
of its own, and an ANSI escape recoloured or cleared the terminal of whoever read the log. The
serve log's formatter now writes such characters as escapes (``\\n``, ``\\x1b``,
``\\u2028``) in the message, and leaves a traceback after it readable on its lines. A
security review found it.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.commands.serve import LOG_FORMAT, RedactingFormatter
from tests.core.serve_process import serving

FORGED = "2026-12-01 12:00:00,000 INFO bot.connectors.web_files: serving all.md to audience hr"


def _formatted(message: str, *args: object, exc: BaseException | None = None) -> str:
    record = logging.LogRecord(
        "citecast", logging.WARNING, __file__, 1, message, args or None, None
    )
    if exc is not None:
        record.exc_info = (type(exc), exc, exc.__traceback__)
    return RedactingFormatter("%(levelname)s %(name)s: %(message)s").format(record)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("a\nb", "a\\nb"),
        ("a\r\nb\tc", "a\\r\\nb\\tc"),
        ("\x1b[2J\x1b]0;title\x07", "\\x1b[2J\\x1b]0;title\\x07"),
        ("\x00\x08\x0b\x0c\x1c\x1f\x7f", "\\x00\\x08\\x0b\\x0c\\x1c\\x1f\\x7f"),
        ("\x80\x85\x9b\x9f", "\\x80\\x85\\x9b\\x9f"),
        ("a\u2028b\u2029c", "a\\u2028b\\u2029c"),
        ("\u202a\u202b\u202c\u202d\u202e", "\\u202a\\u202b\\u202c\\u202d\\u202e"),
        ("\u2066\u2067\u2068\u2069", "\\u2066\\u2067\\u2068\\u2069"),
    ],
    ids=["newline", "cr-tab", "ansi", "c0-del", "c1", "unicode-breaks", "bidi", "isolates"],
)
def test_control_characters_in_a_message_are_written_as_escapes(text: str, shown: str) -> None:
    assert _formatted("serving %s", text) == f"WARNING citecast: serving {shown}"


def test_other_text_and_escapes_already_written_stay_as_they_are() -> None:
    text = "Prüfbericht 2026 (final) — 給与 \u200e\u05d0 pay.md\\nx.md"
    assert _formatted("serving %s", text) == f"WARNING citecast: serving {text}"


def test_a_forged_line_stays_inside_its_own() -> None:
    line = _formatted("no answer to %r: %s", "q", f"pay.md\n{FORGED}")
    assert "\n" not in line
    assert line == f"WARNING citecast: no answer to 'q': pay.md\\n{FORGED}"


def test_a_traceback_stays_on_its_lines_after_the_escaped_message() -> None:
    try:
        raise ValueError("the model said no")
    except ValueError as caught:
        exc = caught
    text = _formatted("turn %s failed", "t1\nINFO forged", exc=exc)
    first, *traceback = text.split("\n")
    assert first == "WARNING citecast: turn t1\\nINFO forged failed"
    assert traceback[0] == "Traceback (most recent call last):"
    assert traceback[-1] == "ValueError: the model said no"


def test_url_credentials_are_still_masked_next_to_a_line_break() -> None:
    line = _formatted("POST %s", "https://u:pw@llm.internal/v1\nnext")
    assert "pw" not in line
    assert line.startswith("WARNING citecast: POST https://…@llm.internal/v1")


def test_the_serve_log_format_is_the_one_formatted() -> None:
    # the formatter `citecast serve` installs is the class tested above, with its format
    record = logging.LogRecord("citecast", logging.INFO, __file__, 1, "a\nb", None, None)
    assert RedactingFormatter(LOG_FORMAT).format(record).endswith(" INFO citecast: a\\nb")


def test_a_real_serve_logs_a_name_with_a_line_break_on_one_line(tmp_path: Path) -> None:
    # the index path is named in the "no knowledge index" warning at start: text the serve
    # process logs as it is, here with a forged line and a screen-clearing escape inside
    config = tmp_path / "config.yaml"
    config.write_text(
        f'web:\n  port: 0\nindex:\n  path: "idx\\n{FORGED}\\e[2J.db"\n', encoding="utf-8"
    )
    with serving(config, tmp_path) as lines:
        pass
    warning = [line for line in lines if "no knowledge index" in line]
    assert len(warning) == 1, "".join(lines)
    assert f"no knowledge index at {tmp_path}/idx\\n{FORGED}\\x1b[2J.db yet" in warning[0]
    assert not any(line.startswith(FORGED) for line in lines)
    assert not any("\x1b" in line for line in lines)
