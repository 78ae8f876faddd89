"""A small IMAP4rev1 server on loopback, for testing the email connector's IMAP poller.

It keeps one mailbox (INBOX, or the given name) in memory and speaks the subset the poller
uses, strictly: CAPABILITY (with ``AUTH=PLAIN`` unless ``auth_plain=False``), LOGIN,
AUTHENTICATE PLAIN (``tests.fakes.imap_auth``), SELECT, SEARCH / UID SEARCH (ALL, SEEN, UNSEEN,
``UID <set>``, and-ed), FETCH / UID FETCH (UID, FLAGS, RFC822.SIZE, RFC822, BODY[],
BODY.PEEK[]), STORE / UID STORE (+FLAGS, -FLAGS, FLAGS), IDLE (``+`` continuation, ``* N
EXISTS`` on delivery, ``DONE``), LIST (``LIST "" *``: the mailbox, ``folders`` and the
``\\Noselect`` ``parents``; names as literals with ``literal_names``), NOOP and LOGOUT; with
a server TLS context, implicit TLS or STARTTLS (RFC 3501 §6.2.1), optionally refusing
LOGIN/AUTHENTICATE until the upgrade (``LOGINDISABLED``). Wrong credentials get ``NO
[AUTHENTICATIONFAILED]``; ``login_answer`` answers every login instead (``NO [UNAVAILABLE]
…``), and ``select_answer`` every SELECT of the mailbox (``NO [INUSE] …``); a SELECT of any
other name gets ``NO`` (``NO [NONEXISTENT] …`` with ``nonexistent_code``). ``start(port)``
brings the server up where one was down. Commands in the wrong state (before LOGIN, before
SELECT, anything but DONE while idling) get ``BAD``/``NO``, as a real server would answer.
``deliver(raw)`` adds a message and wakes idling clients.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import ssl
from dataclasses import dataclass, field

from tests.fakes.imap_auth import read_plain
from tests.fakes.imap_list import list_answer
from tests.fakes.imap_sets import StoredMessage, message_set, search

_TOKEN = re.compile(rb'"(?:\\.|[^"\\])*"|\([^)]*\)|\S+')
MAX_LINE = 8192


@dataclass(eq=False)
class _Session:
    news: asyncio.Event = field(default_factory=asyncio.Event)
    authenticated: bool = False
    selected: bool = False
    tls: bool = False
    known: int = 0
    """How many messages this client has been told exist (EXISTS)."""


class FakeImapServer:
    """An in-memory IMAP4rev1 mailbox served on 127.0.0.1 (port 0; read :attr:`port`)."""

    def __init__(
        self,
        username: str = "bot",
        password: str = "secret",
        *,
        idle: bool = True,
        uidvalidity: int = 1,
        announce_uidnext: bool = True,
        mailbox: str = "INBOX",
        auth_plain: bool = True,
        starttls: ssl.SSLContext | None = None,
        login_disabled: bool = False,
        implicit_tls: ssl.SSLContext | None = None,
        login_answer: bytes | None = None,
        folders: tuple[str, ...] = (),
        select_answer: bytes | None = None,
        nonexistent_code: bool = False,
        parents: tuple[str, ...] = (),
        literal_names: bool = False,
    ):
        self.username = username
        self.password = password
        self.idle_supported = idle
        self.uidvalidity = uidvalidity
        """Sent with SELECT; change it (and the UIDs) with :meth:`renumber`."""
        self.announce_uidnext = announce_uidnext
        """False: SELECT leaves out ``OK [UIDNEXT n]``, as a sloppy server might."""
        self.mailbox = mailbox
        """The one mailbox's name as written on the wire (modified UTF-7, RFC 3501 §5.1.3)."""
        self.auth_plain = auth_plain
        """False: no ``AUTH=PLAIN`` in CAPABILITY and ``AUTHENTICATE`` is refused."""
        self.starttls = starttls
        """Offer STARTTLS (before the upgrade) with this server context."""
        self.login_disabled = login_disabled
        """With ``starttls``: refuse LOGIN and AUTHENTICATE until the upgrade."""
        self.implicit_tls = implicit_tls
        """Speak TLS from the first byte with this server context."""
        self.login_answer = login_answer
        """When set, the tagged answer (``NO [UNAVAILABLE] …``) to every LOGIN and
        AUTHENTICATE, whatever the credentials: a server that cannot judge them now."""
        self.folders = folders
        """Other mailboxes' names (as on the wire) that LIST shows; selecting one gets ``NO``."""
        self.select_answer = select_answer
        """When set, the tagged answer (``NO [INUSE] …``) to every SELECT of the mailbox."""
        self.nonexistent_code = nonexistent_code
        """True: a SELECT of a name there is not says ``NO [NONEXISTENT]`` (RFC 5530), as
        Dovecot does; false: a bare ``NO``, as some servers do."""
        self.parents = parents
        """Names LIST shows as ``\\Noselect`` (Gmail's ``[Gmail]``): folders of folders."""
        self.literal_names = literal_names
        """True: LIST sends every name as a literal (``{5}``), as it may (RFC 3501 §4.3)."""
        self.messages: list[StoredMessage] = []
        self.commands: list[str] = []
        self.tls_commands: list[str] = []
        """The commands that arrived over TLS."""
        self.logins = 0
        self.plain_logins = 0
        self._next_uid = 1
        self._sessions: set[_Session] = set()
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    @property
    def port(self) -> int:
        """The bound port."""
        assert self._server is not None and self._server.sockets
        return int(self._server.sockets[0].getsockname()[1])

    async def start(self, port: int = 0) -> None:
        """Listen on loopback (on ``port``: a server that comes up where one was expected)."""
        self._server = await asyncio.start_server(
            self._serve, "127.0.0.1", port, ssl=self.implicit_tls
        )

    async def stop(self) -> None:
        """Close the listener and every client connection."""
        if self._server is not None:
            self._server.close()
        for writer in list(self._writers):
            writer.close()
        self._server = None

    def disconnect_clients(self) -> None:
        """Drop every client connection (the listener stays up), like a server restart."""
        for writer in list(self._writers):
            writer.close()

    def deliver(self, raw: bytes) -> int:
        """Add a message (unseen) and tell idling clients; returns its UID."""
        message = StoredMessage(self._next_uid, raw)
        self._next_uid += 1
        self.messages.append(message)
        for session in self._sessions:
            session.news.set()
        return message.uid

    def renumber(self, uidvalidity: int) -> None:
        """Give every message a new UID under a new UIDVALIDITY (a recreated mailbox)."""
        self.uidvalidity = uidvalidity
        for message in self.messages:
            message.uid = self._next_uid
            self._next_uid += 1

    def by_uid(self, uid: int) -> StoredMessage:
        """The message with ``uid``."""
        return next(m for m in self.messages if m.uid == uid)

    # -- protocol --------------------------------------------------------------------------

    def _capabilities(self, session: _Session) -> bytes:
        caps = b"IMAP4rev1 IDLE" if self.idle_supported else b"IMAP4rev1"
        if self._before_starttls(session):
            caps += b" STARTTLS LOGINDISABLED" if self.login_disabled else b" STARTTLS"
        return caps + b" AUTH=PLAIN" if self.auth_plain and self._may_log_in(session) else caps

    def _before_starttls(self, session: _Session) -> bool:
        return self.starttls is not None and not session.tls

    def _may_log_in(self, session: _Session) -> bool:
        return not (self.login_disabled and self._before_starttls(session))

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        session = _Session(tls=self.implicit_tls is not None)
        self._sessions.add(session)
        self._writers.add(writer)
        caps = self._capabilities(session)
        try:
            writer.write(b"* OK [CAPABILITY " + caps + b"] fake IMAP ready\r\n")
            await writer.drain()
            while True:
                line = await reader.readline()
                if not line:
                    return
                if len(line) > MAX_LINE or not line.endswith(b"\r\n"):
                    writer.write(b"* BAD line too long or not CRLF-terminated\r\n")
                    return
                if not await self._command(session, line[:-2], reader, writer):
                    return
        except (ConnectionError, asyncio.IncompleteReadError):
            return
        finally:
            self._sessions.discard(session)
            self._writers.discard(writer)
            with contextlib.suppress(Exception):
                writer.close()

    async def _command(
        self,
        session: _Session,
        line: bytes,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
    ) -> bool:
        parts = line.split(b" ", 2)
        if len(parts) < 2:
            writer.write(b"* BAD missing command\r\n")
            return True
        tag, name = parts[0], parts[1].upper().decode("ascii", "replace")
        args = _TOKEN.findall(parts[2]) if len(parts) > 2 else []
        uid_mode = name == "UID"
        if uid_mode:
            if not args:
                writer.write(tag + b" BAD UID needs a command\r\n")
                return True
            name, args = args[0].upper().decode("ascii", "replace"), args[1:]
        self.commands.append(("UID " if uid_mode else "") + name)
        if session.tls:
            self.tls_commands.append(self.commands[-1])
        keep = True
        if name == "CAPABILITY":
            caps = self._capabilities(session)
            writer.write(b"* CAPABILITY " + caps + b"\r\n" + tag + b" OK CAPABILITY done\r\n")
        elif name == "STARTTLS" and self._before_starttls(session) and self.starttls:
            writer.write(tag + b" OK begin TLS negotiation now\r\n")
            await writer.drain()
            try:
                await writer.start_tls(self.starttls)
            except (OSError, TimeoutError):  # the client gave up on the handshake
                return False
            session.tls = True
        elif name in ("LOGIN", "AUTHENTICATE") and not self._may_log_in(session):
            writer.write(tag + b" NO [PRIVACYREQUIRED] LOGINDISABLED: use STARTTLS first\r\n")
        elif name == "NOOP":
            if session.selected:
                session.known = len(self.messages)
                writer.write(b"* %d EXISTS\r\n" % session.known)
            writer.write(tag + b" OK NOOP done\r\n")
        elif name == "LOGOUT":
            writer.write(b"* BYE logging out\r\n" + tag + b" OK LOGOUT done\r\n")
            keep = False
        elif name == "LOGIN":
            self._login(session, tag, args, writer)
        elif name == "AUTHENTICATE" and self.auth_plain and not session.authenticated:
            credentials = await read_plain(tag, args, reader, writer)
            if credentials is not None:
                self._accept(session, tag, credentials, writer)
                self.plain_logins += session.authenticated
        elif not session.authenticated:
            writer.write(tag + b" NO not authenticated\r\n")
        elif name == "SELECT":
            self._select(session, tag, args, writer)
        elif name == "LIST" and not uid_mode:
            self._list(tag, args, writer)
        elif not session.selected:
            writer.write(tag + b" BAD no mailbox selected\r\n")
        elif name == "SEARCH":
            self._search(tag, args, uid_mode, writer)
        elif name == "FETCH":
            self._fetch(tag, args, uid_mode, writer)
        elif name == "STORE":
            self._store(tag, args, uid_mode, writer)
        elif name == "IDLE" and self.idle_supported and not uid_mode:
            keep = await self._idle(session, tag, reader, writer)
        else:
            writer.write(tag + b" BAD unknown command\r\n")
        await writer.drain()
        return keep

    def _login(
        self, session: _Session, tag: bytes, args: list[bytes], writer: asyncio.StreamWriter
    ) -> None:
        if len(args) != 2:
            writer.write(tag + b" BAD LOGIN needs user and password\r\n")
            return
        user, password = (_unquote(a) for a in args)
        self._accept(session, tag, (user, password), writer)

    def _accept(
        self,
        session: _Session,
        tag: bytes,
        user_password: tuple[str, str | None],
        writer: asyncio.StreamWriter,
    ) -> None:
        if self.login_answer is not None:
            writer.write(tag + b" " + self.login_answer + b"\r\n")
        elif user_password == (self.username, self.password):
            session.authenticated = True
            self.logins += 1
            writer.write(tag + b" OK logged in\r\n")
        else:
            writer.write(tag + b" NO [AUTHENTICATIONFAILED] invalid credentials\r\n")

    def _select(
        self, session: _Session, tag: bytes, args: list[bytes], writer: asyncio.StreamWriter
    ) -> None:
        name = _unquote(args[0]) if len(args) == 1 else ""
        if name != self.mailbox and not (name.upper() == self.mailbox == "INBOX"):
            code = b"[NONEXISTENT] " if self.nonexistent_code else b""
            writer.write(tag + b" NO " + code + b"no such mailbox\r\n")
            return
        if self.select_answer is not None:
            writer.write(tag + b" " + self.select_answer + b"\r\n")
            return
        session.selected = True
        session.known = len(self.messages)
        uidnext = b"* OK [UIDNEXT %d] next uid\r\n" % self._next_uid
        writer.write(
            b"* FLAGS (\\Seen \\Answered \\Flagged \\Deleted \\Draft)\r\n"
            b"* %d EXISTS\r\n* 0 RECENT\r\n* OK [UIDVALIDITY %d] UIDs valid\r\n"
            % (len(self.messages), self.uidvalidity)
            + (uidnext if self.announce_uidnext else b"")
            + tag
            + b" OK [READ-WRITE] SELECT completed\r\n"
        )

    def _list(self, tag: bytes, args: list[bytes], writer: asyncio.StreamWriter) -> None:
        if [_unquote(a) for a in args] != ["", "*"]:
            writer.write(tag + b' BAD only LIST "" * is supported\r\n')
            return
        writer.write(
            list_answer(
                tag, (self.mailbox, *self.folders), self.parents, literal=self.literal_names
            )
        )

    def _search(
        self, tag: bytes, args: list[bytes], uid_mode: bool, writer: asyncio.StreamWriter
    ) -> None:
        found = search(self.messages, args, uid_mode)
        if found is None:
            writer.write(tag + b" BAD unsupported search\r\n")
            return
        numbers = b"".join(b" %d" % n for n in found)
        writer.write(b"* SEARCH" + numbers + b"\r\n" + tag + b" OK SEARCH completed\r\n")

    def _fetch(
        self, tag: bytes, args: list[bytes], uid_mode: bool, writer: asyncio.StreamWriter
    ) -> None:
        selected = message_set(self.messages, args[0], uid_mode) if len(args) == 2 else None
        if selected is None:
            writer.write(tag + b" BAD FETCH needs a sequence set and items\r\n")
            return
        items = args[1].strip(b"()").upper().split()
        known = {b"UID", b"FLAGS", b"RFC822.SIZE", b"RFC822", b"BODY[]", b"BODY.PEEK[]"}
        if not items or any(item not in known for item in items):
            writer.write(tag + b" BAD unsupported FETCH item\r\n")
            return
        for seq, message in selected:
            out = [b"UID %d" % message.uid] if uid_mode or b"UID" in items else []
            literal: tuple[bytes, bytes] | None = None
            for item in items:
                if item == b"FLAGS":
                    out.append(b"FLAGS (" + _flags(message) + b")")
                elif item == b"RFC822.SIZE":
                    out.append(b"RFC822.SIZE %d" % len(message.raw))
                elif item in (b"RFC822", b"BODY[]", b"BODY.PEEK[]"):
                    if item != b"BODY.PEEK[]":
                        message.flags.add("\\Seen")
                    name = b"RFC822" if item == b"RFC822" else b"BODY[]"
                    literal = (name, message.raw)
            head = b"* %d FETCH (" % seq + b" ".join(out)
            if literal is None:
                writer.write(head + b")\r\n")
            else:
                sep = b" " if out else b""
                writer.write(head + sep + literal[0] + b" {%d}\r\n" % len(literal[1]))
                writer.write(literal[1] + b")\r\n")
        writer.write(tag + b" OK FETCH completed\r\n")

    def _store(
        self, tag: bytes, args: list[bytes], uid_mode: bool, writer: asyncio.StreamWriter
    ) -> None:
        selected = message_set(self.messages, args[0], uid_mode) if len(args) == 3 else None
        mode = args[1].upper() if len(args) == 3 else b""
        if selected is None or mode not in (b"+FLAGS", b"-FLAGS", b"FLAGS"):
            writer.write(tag + b" BAD STORE needs a set, a mode and flags\r\n")
            return
        flags = {f.decode() for f in args[2].strip(b"()").split()}
        for seq, message in selected:
            if mode == b"+FLAGS":
                message.flags |= flags
            elif mode == b"-FLAGS":
                message.flags -= flags
            else:
                message.flags = set(flags)
            uid = b" UID %d" % message.uid if uid_mode else b""
            writer.write(b"* %d FETCH (FLAGS (%s)%s)\r\n" % (seq, _flags(message), uid))
        writer.write(tag + b" OK STORE completed\r\n")

    async def _idle(
        self,
        session: _Session,
        tag: bytes,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
    ) -> bool:
        writer.write(b"+ idling\r\n")
        read = asyncio.ensure_future(reader.readline())
        try:
            while True:
                # Like a real server: whatever arrived since the client last heard is reported.
                session.news.clear()
                if len(self.messages) != session.known:
                    session.known = len(self.messages)
                    writer.write(b"* %d EXISTS\r\n" % session.known)
                await writer.drain()
                news = asyncio.ensure_future(session.news.wait())
                done, _ = await asyncio.wait({read, news}, return_when=asyncio.FIRST_COMPLETED)
                if news not in done:
                    news.cancel()
                if read in done:
                    line = read.result()
                    if not line:
                        return False
                    if line.strip().upper() != b"DONE":
                        writer.write(tag + b" BAD expected DONE\r\n")
                        return False
                    writer.write(tag + b" OK IDLE terminated\r\n")
                    return True
        finally:
            read.cancel()


def _unquote(token: bytes) -> str:
    text = token.decode("utf-8", "replace")
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = re.sub(r"\\(.)", r"\1", text[1:-1])
    return text


def _flags(message: StoredMessage) -> bytes:
    return " ".join(sorted(message.flags)).encode()
