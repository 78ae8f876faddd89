"""``citecast serve``'s log messages kept on one line (``RedactingFormatter`` applies it)."""

from __future__ import annotations

import re

# What would forge or repaint a log line if written raw: every C0 control (a line break starts
# a forged line, ESC a colour or screen-clearing sequence), DEL, C1 (0x85 is a line break to
# some readers, 0x9b a one-byte CSI), the Unicode line and paragraph separators, and the bidi
# overrides and isolates that reorder the rest of a line.
_LOG_FORGING = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_LOG_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def one_log_line(text: str) -> str:
    """``text`` with each character that could forge or repaint a log line written as a
    visible escape: ``\\n``, ``\\r``, ``\\t``, ``\\x1b``, ``\\u2028``, ``\\u202e``.

    File names, questions and titles reach log messages in many channels: a line break in one
    (``a.md\\n<date> INFO serving b.md``) would forge a line of its own, and an ANSI escape
    recolour or clear the terminal of whoever reads the log. A backslash is left as it is, so
    a message escaped already (``bot.connectors.web_files.logged``) reads the same.
    """
    return _LOG_FORGING.sub(lambda m: _escape(m[0]), text)


def _escape(char: str) -> str:
    if char in _LOG_ESCAPES:
        return _LOG_ESCAPES[char]
    return f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"
