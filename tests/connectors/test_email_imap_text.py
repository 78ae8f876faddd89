"""The IMAP server's words in log lines and errors: decoded, one line, never Python's ``b'…'``."""

from __future__ import annotations

import imaplib

import pytest

from bot.connectors.email_imap_auth import refusal
from bot.connectors.email_imap_text import describe, server_text
from bot.errors import ConfigError


@pytest.mark.parametrize(
    ("said", "shown"),
    [
        (
            b"[AUTHENTICATIONFAILED] invalid credentials",
            "[AUTHENTICATIONFAILED] invalid credentials",
        ),
        ([b"no such mailbox"], "no such mailbox"),
        # imaplib's own message for a BAD answer holds the reprs of the server's bytes
        (
            "SEARCH command error: BAD [b'unsupported search']",
            "SEARCH command error: BAD [unsupported search]",
        ),
        ('IDLE refused: b"CCIDLE1 NO can\'t"', "IDLE refused: CCIDLE1 NO can't"),
        # a CR/LF from a hostile server never starts a second log line
        (b"bad\r\n2026-01-01 ERROR forged", "bad 2026-01-01 ERROR forged"),
        (b"caf\xc3\xa9 \xff", "café \ufffd"),
        (b"x" * 1000, "x" * 299 + "…"),
    ],
)
def test_the_server_s_words_are_shown_as_plain_text(said: object, shown: str) -> None:
    assert server_text(said) == shown


def test_an_imaplib_error_is_described_without_bytes_repr() -> None:
    error = imaplib.IMAP4.error(b"[AUTHENTICATIONFAILED] invalid credentials")
    assert describe(error) == "[AUTHENTICATIONFAILED] invalid credentials"
    assert describe(ConnectionRefusedError(111, "Connection refused")) == (
        "[Errno 111] Connection refused"
    )
    assert describe(TimeoutError()) == "TimeoutError"


@pytest.mark.parametrize(
    ("said", "kind", "start"),
    [
        (
            "[AUTHENTICATIONFAILED] Invalid credentials (Failure)",
            ConfigError,
            "email.imap.password: ",
        ),
        ("LOGIN failed.", ConfigError, "email.imap.password: "),
        ("[PRIVACYREQUIRED] use STARTTLS first", ConfigError, "email.imap.starttls: "),
        ("[UNAVAILABLE] Temporary authentication failure", imaplib.IMAP4.error, "the IMAP server"),
    ],
)
def test_only_a_login_the_server_cannot_judge_now_is_retried(
    said: str, kind: type[Exception], start: str
) -> None:
    error = refusal("bot@example.org", said)
    assert type(error) is kind and str(error).startswith(start)
    assert "'bot@example.org'" in str(error)
