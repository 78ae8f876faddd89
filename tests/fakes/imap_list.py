"""The fake IMAP server's LIST answer (RFC 3501 §7.2.2): one ``* LIST`` line a mailbox."""

from __future__ import annotations


def list_answer(
    tag: bytes, selectable: tuple[str, ...], parents: tuple[str, ...], *, literal: bool
) -> bytes:
    """``LIST "" *``'s answer: ``selectable`` mailboxes, then ``parents`` as ``\\Noselect``
    (folders of folders); names quoted, or as literals (``{5}``) when ``literal``."""
    listed = [(b"\\HasNoChildren", name) for name in selectable]
    listed += [(b"\\Noselect \\HasChildren", name) for name in parents]
    out = b""
    for flags, name in listed:
        raw = name.encode()
        if literal:
            written = b"{%d}\r\n" % len(raw) + raw
        else:
            written = b'"' + raw.replace(b"\\", b"\\\\").replace(b'"', b'\\"') + b'"'
        out += b"* LIST (" + flags + b') "/" ' + written + b"\r\n"
    return out + tag + b" OK LIST completed\r\n"
