"""One blocking IMAP session (stdlib imaplib) of :class:`bot.connectors.email_imap.ImapPoller`.

It connects (TLS as configured), logs in and selects the mailbox, searches for unseen UIDs,
fetches a message's size and body without setting \\Seen, sets \\Seen, and waits in ``IDLE``
for news; a self-pipe lets the event loop's thread end that wait.
"""

from __future__ import annotations

import contextlib
import imaplib
import re
import select
import socket
import ssl

from bot.config import ImapSettings
from bot.connectors.email_imap_auth import log_in
from bot.connectors.email_imap_select import select_mailbox
from bot.connectors.email_imap_text import server_text
from bot.connectors.email_imap_tls import open_session, secure, tls_context, warn_plain
from bot.connectors.email_imap_wire import buffered, response_number

_SIZE = re.compile(rb"RFC822\.SIZE (\d+)")


class ImapMailbox:
    """A blocking IMAP session; every method runs in a worker thread except :meth:`abort`."""

    def __init__(self, settings: ImapSettings) -> None:
        self._settings = settings
        self._tls = tls_context(settings)
        self._warned_plain = False
        self._imap: imaplib.IMAP4 | None = None
        self._idle_tags = 0
        self.validity = 0
        """The selected mailbox's UIDVALIDITY (0 when the server did not say)."""
        self.uidnext = 1
        """The UID the next message delivered to the selected mailbox will get."""
        # A self-pipe lets another thread end an IDLE wait politely (DONE, then LOGOUT).
        self._wake_reader, self._wake_writer = socket.socketpair()
        self._wake_reader.setblocking(False)

    @property
    def can_idle(self) -> bool:
        """True when the server advertised IDLE and the settings allow it."""
        imap = self._imap
        return bool(imap and self._settings.idle and "IDLE" in imap.capabilities)

    def connect(self) -> None:
        """Connect (TLS as configured, see ``email_imap_tls``), log in, select the mailbox."""
        s = self._settings
        imap = open_session(s, self._tls)
        self._imap = imap
        # imaplib swaps in the TLS socket and its reader: everything below (IDLE's pending
        # and buffered checks included) reads imap.sock/imap.file afresh
        if secure(imap, s, self._tls) and not self._warned_plain:
            self._warned_plain = True
            warn_plain(imap, s)
        log_in(imap, s.username, s.password)
        select_mailbox(imap, s.mailbox)
        self.validity = response_number(imap, "UIDVALIDITY") or 0
        # RFC 3501 makes UIDNEXT part of every SELECT answer; a server that leaves it out
        # gets the highest UID there plus one
        self.uidnext = response_number(imap, "UIDNEXT") or max(self._search("ALL"), default=0) + 1

    def unseen(self, first_uid: int = 1) -> list[bytes]:
        """UIDs (``first_uid`` or higher) of messages without \\Seen."""
        # "n:*" also matches the highest UID when it is below n (RFC 3501 §6.4.8)
        return [
            uid for uid in self._uids("UNSEEN", "UID", f"{first_uid}:*") if int(uid) >= first_uid
        ]

    def count_unseen_below(self, uid: int) -> int:
        """How many messages with a UID below ``uid`` are without \\Seen."""
        return len(self._uids("UNSEEN", "UID", f"1:{uid - 1}")) if uid > 1 else 0

    def _search(self, *criteria: str) -> list[int]:
        return [int(uid) for uid in self._uids(*criteria)]

    def _uids(self, *criteria: str) -> list[bytes]:
        typ, data = self._session().uid("SEARCH", *criteria)
        if typ != "OK":
            raise imaplib.IMAP4.error(f"SEARCH failed: {server_text(data)}")
        # numbers only: a CONDSTORE server may append "(MODSEQ 917162500)"
        words = (word for chunk in data if isinstance(chunk, bytes) for word in chunk.split())
        return [word for word in words if word.isdigit()]

    def size(self, uid: bytes) -> int | None:
        """The message's RFC822.SIZE, or None when the server does not say."""
        typ, data = self._session().uid("FETCH", uid.decode(), "(RFC822.SIZE)")
        for item in data if typ == "OK" else []:
            found = _SIZE.search(item if isinstance(item, bytes) else b"")
            if found:
                return int(found.group(1))
        return None

    def fetch(self, uid: bytes) -> bytes | None:
        """The raw message, read without setting \\Seen; None when it vanished."""
        typ, data = self._session().uid("FETCH", uid.decode(), "(BODY.PEEK[])")
        if typ != "OK":
            raise imaplib.IMAP4.error(f"FETCH failed: {server_text(data)}")
        for item in data:
            if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], bytes):
                return item[1]
        return None

    def mark_seen(self, uid: bytes) -> None:
        """Set \\Seen on the message."""
        typ, data = self._session().uid("STORE", uid.decode(), "+FLAGS", "(\\Seen)")
        if typ != "OK":
            raise imaplib.IMAP4.error(f"STORE failed: {server_text(data)}")

    def noop(self) -> None:
        """Keep the session alive (and let the server report news)."""
        self._session().noop()

    def idle(self, timeout: float) -> bool:
        """Wait in IDLE until the server reports news or ``timeout``; true when it did."""
        imap = self._session()
        self._idle_tags += 1
        tag = b"CCIDLE%d" % self._idle_tags
        imap.send(tag + b" IDLE\r\n")
        while True:
            line = imap.readline()
            if not line:
                raise imaplib.IMAP4.abort("connection closed during IDLE")
            if line.startswith(b"+"):
                break
            if line.startswith(tag + b" "):
                raise imaplib.IMAP4.error(f"IDLE refused: {server_text(line)}")
        news = self._wait_readable(imap, timeout)
        if news and not imap.readline():
            raise imaplib.IMAP4.abort("connection closed during IDLE")
        imap.send(b"DONE\r\n")
        while True:
            line = imap.readline()
            if not line:
                raise imaplib.IMAP4.abort("connection closed after IDLE")
            if line.startswith(tag + b" "):
                return news

    def _wait_readable(self, imap: imaplib.IMAP4, timeout: float) -> bool:
        sock = imap.sock
        if buffered(imap) or (isinstance(sock, ssl.SSLSocket) and sock.pending()):
            return True
        readable, _, _ = select.select([sock, self._wake_reader], [], [], timeout)
        if self._wake_reader in readable:
            with contextlib.suppress(OSError):
                self._wake_reader.recv(64)
            return False
        return bool(readable)

    def interrupt(self) -> None:
        """End an IDLE wait early (thread-safe); the session stays usable."""
        with contextlib.suppress(OSError):
            self._wake_writer.send(b"!")

    def close(self) -> None:
        """Log out (best effort) and forget the session."""
        imap, self._imap = self._imap, None
        if imap is None:
            return
        with contextlib.suppress(Exception):
            imap.logout()

    def dispose(self) -> None:
        """Release the self-pipe (after :meth:`close`)."""
        self._wake_reader.close()
        self._wake_writer.close()

    def abort(self) -> None:
        """Unblock a thread waiting on the socket (called from the event loop thread)."""
        imap = self._imap
        if imap is not None:
            with contextlib.suppress(OSError):
                imap.sock.shutdown(socket.SHUT_RDWR)

    def _session(self) -> imaplib.IMAP4:
        if self._imap is None:
            raise imaplib.IMAP4.abort("not connected")
        return self._imap
