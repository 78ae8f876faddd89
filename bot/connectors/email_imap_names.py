"""How the polled IMAP mailbox is named: on the wire, and in the store.

imaplib sends a mailbox argument exactly as given, so ``SELECT Support Requests`` is a syntax
error and a name with an accent cannot even be encoded (the poller stopped on it).
:func:`mailbox_argument` writes the name as RFC 3501 wants it: modified UTF-7 (§5.1.3), quoted.
:func:`shown_name` turns a name the server lists back into the one a mail client shows.
:func:`mailbox_key` names the mailbox (server, account, folder) among the saved start points.
"""

from __future__ import annotations

import base64
import binascii
import re

from bot.config import ImapSettings

_ENCODED_RUN = re.compile(r"&([^-]*)-")


def mailbox_argument(name: str) -> str:
    """``name`` as the mailbox argument of SELECT: in modified UTF-7 (RFC 3501 §5.1.3) and
    quoted, so a folder name with spaces or accents is selected (imaplib sends it as given).

    A name already written in modified UTF-7 (``Re&AOc-us``), or already quoted, is kept.
    """
    if len(name) >= 2 and name[0] == name[-1] == '"':
        name = re.sub(r"\\(.)", r"\1", name[1:-1])
    if not (name.isascii() and "&" in name and _is_modified_utf7(name)):
        name = _modified_utf7(name)
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _modified_utf7(text: str) -> str:
    out: list[str] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            data = base64.b64encode("".join(run).encode("utf-16-be")).decode("ascii")
            out.append("&" + data.rstrip("=").replace("/", ",") + "-")
            run.clear()

    for char in text:
        if " " <= char <= "~":
            flush()
            out.append("&-" if char == "&" else char)
        else:
            run.append(char)
    flush()
    return "".join(out)


def _is_modified_utf7(text: str) -> bool:
    """True when every ``&`` of ``text`` starts a well-formed modified UTF-7 run."""
    if text.count("&") != len(_ENCODED_RUN.findall(text)):
        return False
    for run in _ENCODED_RUN.findall(text):
        if not run:
            continue
        try:
            data = base64.b64decode(run.replace(",", "/") + "=" * (-len(run) % 4), validate=True)
            data.decode("utf-16-be")
        except (binascii.Error, UnicodeDecodeError):
            return False
    return True


def shown_name(wire: str) -> str:
    """A mailbox name as the server wrote it (modified UTF-7, ``Re&AOc-us``) as a mail client
    shows it (``Reçus``); a name that is not well-formed modified UTF-7 is kept as written."""
    if "&" not in wire or not _is_modified_utf7(wire):
        return wire

    def decoded(run: re.Match[str]) -> str:
        data = run.group(1)
        if not data:
            return "&"
        raw = base64.b64decode(data.replace(",", "/") + "=" * (-len(data) % 4))
        return raw.decode("utf-16-be")

    return _ENCODED_RUN.sub(decoded, wire)


def mailbox_key(settings: ImapSettings) -> str:
    """Names the polled mailbox (server, account, folder) among the saved start points
    (``email_imap.StartPoints``)."""
    return f"{settings.host.lower()}:{settings.port}/{settings.username}/{settings.mailbox}"
