"""The fake IMAP server's ``AUTHENTICATE PLAIN`` (SASL PLAIN, RFC 4616; RFC 3501 §6.2.2).

The exchange: ``tag AUTHENTICATE PLAIN`` (optionally with the initial response, RFC 4959), the
server's empty ``+`` challenge, one base64 line from the client (``*`` cancels), then the tagged
result. The response decodes to ``authzid NUL authcid NUL passwd``, all UTF-8; an authzid other
than empty or the authcid itself is refused, as a server without proxy rights would.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
from dataclasses import dataclass


@dataclass(frozen=True)
class PlainCredentials:
    """What a SASL PLAIN response carried."""

    authzid: str
    username: str
    password: str


def decode_plain(line: bytes) -> PlainCredentials | None:
    """The credentials of one base64 SASL PLAIN response; None when it is malformed."""
    try:
        raw = base64.b64decode(line.strip(), validate=True)
        fields = raw.decode("utf-8").split("\0")
    except (binascii.Error, UnicodeDecodeError):
        return None
    if len(fields) != 3:
        return None
    return PlainCredentials(*fields)


async def read_plain(
    tag: bytes, args: list[bytes], reader: asyncio.StreamReader, writer: asyncio.StreamWriter
) -> tuple[str, str | None] | None:
    """Run the exchange up to the client's response: ``(user, password)`` to check, the password
    None when the authzid names someone else (proxy rights this fake never grants); None after a
    refusal, already answered. The caller writes the tagged ``OK`` or ``NO``.
    """
    if not args or args[0].upper() != b"PLAIN" or len(args) > 2:
        writer.write(tag + b" NO [CANNOT] unsupported authentication mechanism\r\n")
        return None
    if len(args) == 2:
        line = args[1]
    else:
        writer.write(b"+ \r\n")
        await writer.drain()
        line = (await reader.readline()).rstrip(b"\r\n")
    if line == b"*":
        writer.write(tag + b" BAD AUTHENTICATE cancelled\r\n")
        return None
    credentials = decode_plain(line)
    if credentials is None:
        writer.write(tag + b" BAD malformed SASL PLAIN response\r\n")
        return None
    user = credentials.username
    return user, credentials.password if credentials.authzid in ("", user) else None
