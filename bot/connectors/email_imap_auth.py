"""Logging in to an IMAP server with credentials that may not be ASCII.

imaplib's ``LOGIN`` sends the user name and password as ASCII quoted strings, so a password
such as ``pässwort`` cannot be sent at all (imaplib raises ``UnicodeEncodeError`` before a byte
leaves). Such credentials go through ``AUTHENTICATE PLAIN`` instead (SASL PLAIN, RFC 4616,
whose user name and password are UTF-8) when the server advertises ``AUTH=PLAIN``; a server
without it gets no attempt and the session fails with one line that says why and names no
secret. ASCII credentials keep using ``LOGIN``, which every server accepts.
"""

from __future__ import annotations

import imaplib
from collections.abc import Callable

PLAIN_CAPABILITY = "AUTH=PLAIN"


def log_in(imap: imaplib.IMAP4, username: str, password: str) -> None:
    """Authenticate the session: ``LOGIN`` for ASCII credentials, else ``AUTHENTICATE PLAIN``.

    Raises ``imaplib.IMAP4.error`` (never with the password in its message) when the server
    refuses the credentials or cannot be sent them.
    """
    if username.isascii() and password.isascii():
        imap.login(username, password)
        return
    if PLAIN_CAPABILITY not in imap.capabilities:
        which = "user name" if not username.isascii() else "password"
        raise imaplib.IMAP4.error(
            f"email.imap: the {which} is not ASCII and the server does not offer AUTHENTICATE "
            "PLAIN (no AUTH=PLAIN in its CAPABILITY), so it cannot be sent; use an ASCII "
            "password (or an app password) for this mailbox"
        )
    imap.authenticate("PLAIN", _plain_response(username, password))


def _plain_response(username: str, password: str) -> Callable[[bytes], bytes | None]:
    """The SASL PLAIN client: one response (no authorization identity), then abort.

    A server that sends a second challenge did not accept the first answer; answering ``*``
    ends the exchange instead of sending the password again.
    """
    sent = False

    def respond(_challenge: bytes) -> bytes | None:
        nonlocal sent
        if sent:
            return None
        sent = True
        return b"\0" + username.encode("utf-8") + b"\0" + password.encode("utf-8")

    return respond
