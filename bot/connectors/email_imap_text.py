"""What an IMAP server said, as text fit for one log line.

imaplib hands the server's words over as bytes (``error(b'[AUTHENTICATIONFAILED] invalid
credentials')``), or as a string with bytes reprs inside (``SEARCH command error: BAD
[b'...']``); a log line should read ``AUTHENTICATIONFAILED invalid credentials``, not Python's
``b'…'``. The server's text is not trusted: control characters (a CR/LF would split the log
line) become spaces, and it is cut to a few hundred characters.
"""

from __future__ import annotations

import ast
import re

MAX_CHARS = 300
# a Python bytes literal as repr() writes it, inside imaplib's own messages
_BYTES_REPR = re.compile(r"""b'(?:[^'\\]|\\.)*'|b"(?:[^"\\]|\\.)*\"""")


def server_text(value: object, limit: int = MAX_CHARS) -> str:
    """``value`` (bytes, a list of them, or a message holding their reprs) as one plain line."""
    if isinstance(value, bytes):
        text = value.decode("utf-8", "replace")
    elif isinstance(value, list | tuple):
        text = " ".join(server_text(item, limit) for item in value)
    else:
        text = _BYTES_REPR.sub(_decoded, str(value))
    text = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe(exc: BaseException) -> str:
    """An exception as one readable line: the server's words decoded, else its type's name."""
    args = exc.args
    text = server_text(args[0] if len(args) == 1 else str(exc))
    return text or type(exc).__name__


def response_code(text: str) -> str:
    """The response code a server's text starts with (``AUTHENTICATIONFAILED`` from
    ``[AUTHENTICATIONFAILED] invalid credentials``, RFC 5530), upper-cased; ``""`` if none."""
    found = re.match(r"\s*\[([A-Za-z-]+)", text)
    return found.group(1).upper() if found else ""


def without_brackets(text: str) -> str:
    """``[AUTHENTICATIONFAILED] invalid credentials`` as ``AUTHENTICATIONFAILED invalid
    credentials``: inside the parentheses of an error line, brackets only add noise."""
    return re.sub(r"^\s*\[([^\]]*)\]\s*", r"\1 ", text).strip()


def _decoded(match: re.Match[str]) -> str:
    literal = match.group(0)
    try:
        value = ast.literal_eval(literal)
    except (ValueError, SyntaxError):
        return literal
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else literal
