"""Logging in to an IMAP server, and telling a refused login from a session that failed.

imaplib's ``LOGIN`` sends the user name and password as ASCII quoted strings, so a password
such as ``pässwort`` cannot be sent at all (imaplib raises ``UnicodeEncodeError`` before a byte
leaves). Such credentials go through ``AUTHENTICATE PLAIN`` instead (SASL PLAIN, RFC 4616,
whose user name and password are UTF-8) when the server advertises ``AUTH=PLAIN``; a server
without it gets no attempt. ASCII credentials keep using ``LOGIN``, which every server accepts.

A login the server refuses (a tagged ``NO``, usually ``[AUTHENTICATIONFAILED]``) is a
``ConfigError`` naming the setting to fix, as a token Slack or Discord refuses is: logging in
again cannot help until someone changes it. Only ``[UNAVAILABLE]`` (RFC 5530: the server
cannot judge the credentials now) and a lost connection stay ordinary session failures, to be
retried. No message ever holds the password.
"""

from __future__ import annotations

import imaplib
from collections.abc import Callable

from bot.connectors.email_imap_text import describe, response_code, without_brackets
from bot.errors import ConfigError

PLAIN_CAPABILITY = "AUTH=PLAIN"
LOGIN_ADVICE = (
    "check that email.imap.password (such as ${IMAP_PASSWORD}) holds the mailbox's current "
    "password (an app password where the provider requires one) and that email.imap.username "
    "is its login name"
)


def log_in(imap: imaplib.IMAP4, username: str, password: str) -> None:
    """Authenticate the session: ``LOGIN`` for ASCII credentials, else ``AUTHENTICATE PLAIN``.

    Raises ``ConfigError`` (one line naming the setting, never the password) when the server
    refuses the credentials or they cannot be sent to it, and ``imaplib.IMAP4.error`` when it
    cannot judge them now or the connection was lost.
    """
    try:
        _authenticate(imap, username, password)
    except imaplib.IMAP4.abort:
        raise  # the connection was lost: nothing was judged
    except imaplib.IMAP4.error as exc:
        raise refusal(username, describe(exc)) from None


def refusal(username: str, said: str) -> ConfigError | imaplib.IMAP4.error:
    """The error for a login the server answered ``said`` (its decoded text) instead of OK."""
    code = response_code(said)
    text = without_brackets(said)
    if code == "UNAVAILABLE":
        return imaplib.IMAP4.error(f"the IMAP server cannot log in {username!r} now ({text})")
    if code == "PRIVACYREQUIRED":
        return ConfigError(
            f"email.imap.starttls: the IMAP server refuses to log in {username!r} without TLS"
            f" ({text}); set email.imap.starttls: true (or ssl: true, usually on port 993)"
        )
    return ConfigError(
        f"email.imap.password: the IMAP server refused the login for {username!r} ({text});"
        f" {LOGIN_ADVICE}"
    )


def _authenticate(imap: imaplib.IMAP4, username: str, password: str) -> None:
    if username.isascii() and password.isascii():
        imap.login(username, password)
        return
    if PLAIN_CAPABILITY not in imap.capabilities:
        key, which = (
            ("username", "user name") if not username.isascii() else ("password", "password")
        )
        raise ConfigError(
            f"email.imap.{key}: the {which} is not ASCII and the server does not offer"
            " AUTHENTICATE PLAIN (no AUTH=PLAIN in its CAPABILITY), so it cannot be sent; use an"
            " ASCII password (or an app password) for this mailbox"
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
