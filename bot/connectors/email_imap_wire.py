"""What imaplib holds after a command: a response code's number, bytes read but not yet taken."""

from __future__ import annotations

import imaplib
import io
import re

NUMBER = re.compile(rb"\d+")


def response_number(imap: imaplib.IMAP4, code: str) -> int | None:
    """The number of a response code of the last command (``OK [UIDNEXT 42]``), or None."""
    _, data = imap.response(code)
    for item in data:
        found = NUMBER.match(item) if isinstance(item, bytes) else None
        if found:
            return int(found.group(0))
    return None


def buffered(imap: imaplib.IMAP4) -> bool:
    """True when imaplib already holds unread bytes (a line that arrived with the ``+``)."""
    sock = imap.sock
    timeout = sock.gettimeout()
    try:
        sock.settimeout(0.0)  # non-blocking: peek returns what is buffered, never waits
        reader = imap.file
        return isinstance(reader, io.BufferedReader) and bool(reader.peek(1))
    except OSError:
        return False
    finally:
        sock.settimeout(timeout)
