"""Selecting the polled IMAP mailbox, and telling a mailbox that is not there from a busy one.

A ``SELECT`` the server answers with ``NO`` is not always a wrong ``email.imap.mailbox``: RFC
5530 lets it say that it cannot open the mailbox now (``[UNAVAILABLE]``, ``[INUSE]``,
``[SERVERBUG]``, ``[LIMIT]``), and selecting again later helps. A mailbox that does not exist
(``[NONEXISTENT]``, or a ``NO`` without a code for a name the server does not ``LIST``) can
never be selected until someone changes the setting: that is a ``ConfigError`` naming
``email.imap.mailbox``, listing the names the server has (one ``LIST``, asked only then), so
the right one can be copied from the line. A ``NO`` for a mailbox the server does list stays an
ordinary session failure, retried.
"""

from __future__ import annotations

import imaplib
import re

from bot.connectors.email_imap_names import mailbox_argument, shown_name
from bot.connectors.email_imap_text import response_code, server_text, without_brackets
from bot.errors import ConfigError

MAX_NAMES = 20
"""The most mailbox names one line lists (a server may have hundreds of folders)."""
TRANSIENT_CODES = frozenset({"UNAVAILABLE", "INUSE", "SERVERBUG", "LIMIT", "EXPUNGEISSUED"})
"""RFC 5530 codes for a ``NO`` that selecting again later may not get."""

# one LIST line: (flags) delimiter name; the name quoted, an atom, or a literal (a tuple)
_LIST_LINE = re.compile(rb'^\((?P<flags>[^)]*)\) (?:"(?:\\.|[^"\\])*"|NIL) (?P<name>.*)$', re.S)
_LITERAL = re.compile(rb"\{\d+\}$")


def select_mailbox(imap: imaplib.IMAP4, mailbox: str) -> None:
    """``SELECT`` ``mailbox`` (its name as a mail client shows it).

    Raises ``ConfigError`` naming ``email.imap.mailbox`` when the server has no such mailbox,
    and ``imaplib.IMAP4.error`` when it cannot open it now.
    """
    wire = mailbox_argument(mailbox)
    typ, data = imap.select(wire)
    if typ == "OK":
        return
    said = server_text(data)
    code = response_code(said)
    failed = f"cannot select {mailbox!r}: {said}"
    if code in TRANSIENT_CODES:
        raise imaplib.IMAP4.error(failed)
    names = listed_names(imap)
    if code != "NONEXISTENT" and (names is None or _is_listed(wire[1:-1], names)):
        raise imaplib.IMAP4.error(failed)  # it is there (or the server will not say)
    has = ""
    if names:
        # the server's words: no control characters, no endless names in the line
        shown = [repr(server_text(shown_name(name), 80)) for name in names[:MAX_NAMES]]
        more = f" and {len(names) - MAX_NAMES} more" if len(names) > MAX_NAMES else ""
        has = f"; it has {', '.join(shown)}{more}"
    raise ConfigError(
        f"email.imap.mailbox: the IMAP server has no mailbox {mailbox!r}"
        f" ({without_brackets(said) or 'NO'}){has}; set email.imap.mailbox to the folder's"
        " name as your mail client shows it"
    )


def listed_names(imap: imaplib.IMAP4) -> list[str] | None:
    """The selectable mailboxes' names as the server writes them (``LIST "" *``), or None
    when it does not answer LIST."""
    try:
        typ, data = imap.list()
    except imaplib.IMAP4.abort:
        raise  # the connection is gone: a session failure
    except imaplib.IMAP4.error:  # a BAD answer
        return None
    if typ != "OK":
        return None
    names: list[str] = []
    for item in data:
        line, literal = (item[0], item[1]) if isinstance(item, tuple) else (item, None)
        found = _LIST_LINE.match(line) if isinstance(line, bytes) else None
        if found is None or b"\\noselect" in found.group("flags").lower():
            continue
        name = found.group("name")
        if literal is not None and _LITERAL.search(name):
            name = literal
        text = name.decode("utf-8", "replace")
        if len(text) >= 2 and text[0] == text[-1] == '"':
            text = re.sub(r"\\(.)", r"\1", text[1:-1])
        names.append(text)
    return names


def _is_listed(wire: str, names: list[str]) -> bool:
    unquoted = re.sub(r"\\(.)", r"\1", wire)
    return any(n == unquoted or n.upper() == unquoted.upper() == "INBOX" for n in names)
