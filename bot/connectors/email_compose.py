"""The reply MIME message, built from the email renderer's payload.

Layout: ``multipart/alternative`` (text/plain first, text/html last, both UTF-8 quoted-printable)
inside ``multipart/mixed`` when cited files are attached. Threading: ``Subject: Re: …`` (never
"Re: Re:", ``email_reply_subject``; a mail without a subject gets the answer's first line),
``In-Reply-To`` and ``References`` (the original's references plus its Message-ID,
trimmed to the root and the most recent ids), a fresh ``Message-ID`` that carries the thread key
so a reply to the reply finds the conversation, and ``Auto-Submitted: auto-replied`` plus
``X-Auto-Response-Suppress: All`` so other robots do not answer us back.

The message is serialized 7-bit clean (CRLF line ends), so the outbox can store it as text and
any SMTP server can take it.

A note for the sender (:func:`long_message_note`, :func:`with_note`) goes above the answer in
both parts: the connector adds one when only the start of a long mail was read, so the sender
knows the end of it was not.
"""

from __future__ import annotations

import html as html_lib
import logging
import mimetypes
import re
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import formataddr, formatdate
from pathlib import Path
from typing import Any

from bot.connectors.email_files import wire_size
from bot.connectors.email_parse import InboundMail

# re-exported: the connector names the reply's subject with it
from bot.connectors.email_reply_subject import reply_subject as reply_subject
from renderers.email_file_names import email_file_name

log = logging.getLogger(__name__)

# 78 columns for headers too: RFC 2047 encoded words (a non-ASCII subject) are sized to the line
# and must stay within 75 characters. Headers set raw (the message ids of In-Reply-To and
# References, folded between ids by _folded_ids) are written as they are: refolded, an id longer
# than the line (Exchange Online's are ~80 characters) became encoded words no client threads by.
_COLUMNS = 78
POLICY = SMTP.clone(cte_type="7bit", max_line_length=_COLUMNS, refold_source="none")
# an id a header can carry as written: printable ASCII without "<" or ">" inside, within the
# 998-character line limit of RFC 5322
_WRITABLE_ID = re.compile(r"<[!-;=?-~]{1,900}>")
_THREAD_ID = re.compile(r"^<cc-([0-9a-f]{16,64})\.[0-9a-f]+@[^<>@\s]+>$")
_OWN_HEADERS = frozenset(
    {
        "from", "to", "cc", "bcc", "subject", "date", "message-id", "in-reply-to", "references",
        "auto-submitted", "x-auto-response-suppress", "mime-version", "content-type",
        "content-transfer-encoding", "sender", "reply-to", "return-path",
    }
)  # fmt: skip
MAX_REFERENCES = 20
_NOTE_STYLE = "margin:0 0 12px;font-size:13px;color:#9a6700;"
# where the note goes in the renderer's HTML: first thing in the body's content column
_HTML_START = (
    re.compile(r"<body\b[^>]*>\s*<div\b[^>]*>", re.I),
    re.compile(r"<body\b[^>]*>", re.I),
)


@dataclass(frozen=True)
class Note:
    """A short note for the sender, as plain text and as an HTML paragraph."""

    text: str
    html: str


def long_message_note(read_chars: int) -> Note:
    """The note for a mail whose question was cut to its first ``read_chars`` characters."""
    text = f"Your message was long: I read only its first {read_chars:,} characters."
    return Note(text, f'<p style="{_NOTE_STYLE}">{html_lib.escape(text)}</p>')


def unread_files_note(*, subject_only: bool) -> Note:
    """The note for a mail that carried files: they were not read, and the answer is from the
    knowledge base (``subject_only``: the mail had no other text, its subject was answered)."""
    if subject_only:
        text = "I cannot read attachments, and your message had no other text: I answered its "
        text += "subject."
    else:
        text = "I cannot read attachments, so this answer is from the knowledge base only."
    return Note(text, f'<p style="{_NOTE_STYLE}">{html_lib.escape(text)}</p>')


@dataclass(frozen=True)
class OutboundMail:
    """A composed reply: envelope and the serialized message (stored as-is in the outbox)."""

    sender: str
    recipients: tuple[str, ...]
    message_id: str
    message: str
    # the Message-ID of the mail this answers: the log says which question got its answer
    in_reply_to: str = ""

    def to_json(self) -> dict[str, Any]:
        """The outbox payload form."""
        return {
            "sender": self.sender,
            "recipients": list(self.recipients),
            "message_id": self.message_id,
            "message": self.message,
            "in_reply_to": self.in_reply_to,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> OutboundMail:
        """Rebuild from the outbox payload."""
        return cls(
            sender=str(data["sender"]),
            recipients=tuple(str(r) for r in data["recipients"]),
            message_id=str(data["message_id"]),
            message=str(data["message"]),
            # absent from replies queued by an earlier version
            in_reply_to=str(data.get("in_reply_to") or ""),
        )


def _subject(mail: InboundMail, rendered: str) -> str:
    """The reply's Subject: ``Re: `` and the mail's own subject (as the renderer cleaned it);
    for a mail without one, the renderer's subject as it is, the answer's first line with
    words (there is nothing to say "Re:" to, and it tells the inbox what the answer says)."""
    if not reply_subject(mail.subject):
        return rendered or "Your answer"
    return reply_subject(rendered or mail.subject)


def new_message_id(thread_key: str, domain: str) -> str:
    """A fresh Message-ID carrying ``thread_key`` (hex) so replies to it find the thread."""
    return f"<cc-{thread_key}.{uuid.uuid4().hex[:16]}@{domain}>"


def thread_key_of(message_id: str) -> str | None:
    """The thread key inside a Message-ID this bot generated, if it is one."""
    found = _THREAD_ID.match(message_id)
    return found.group(1) if found else None


def references_for(mail: InboundMail, root: str | None = None) -> tuple[str, ...]:
    """References of the reply: the original's plus its Message-ID, root and latest kept.

    ``root`` is the thread's first message as the store knows it, for a mail that carries only
    ``In-Reply-To`` (Outlook's reply to our reply): the References then start at it still."""
    refs = list(mail.references)
    if not refs and root and root != mail.in_reply_to and root != mail.message_id:
        refs.append(root)
    if mail.in_reply_to and mail.in_reply_to not in refs:
        refs.append(mail.in_reply_to)
    if not is_derived_id(mail.message_id):
        refs.append(mail.message_id)
    if len(refs) > MAX_REFERENCES:
        refs = [refs[0], *refs[-(MAX_REFERENCES - 1) :]]
    return tuple(refs)


def is_derived_id(message_id: str) -> bool:
    """True for the stand-in id of a message that had no Message-ID header."""
    return message_id.endswith("@citecast.invalid>")


def with_note(payload: Mapping[str, Any], note: Note) -> dict[str, Any]:
    """The renderer ``payload`` with ``note`` above the answer in its text and HTML parts."""
    out = dict(payload)
    out["text"] = f"{note.text}\n\n{payload.get('text') or ''}"
    markup = str(payload.get("html") or "")
    if markup:
        found = next((m for m in (p.search(markup) for p in _HTML_START) if m), None)
        at = found.end() if found else 0
        # no line break added: the connector reserves the note's bytes and one more out of the
        # HTML budget, and a line break travels as two (CRLF)
        out["html"] = f"{markup[:at]}{note.html}{markup[at:]}"
    return out


def compose_reply(
    payload: Mapping[str, Any],
    mail: InboundMail,
    *,
    from_address: str,
    from_name: str,
    message_id: str,
    max_attachment_bytes: int,
    root: str | None = None,
) -> OutboundMail:
    """Build the reply to ``mail`` from the renderer payload ``{subject, text, html, …}``
    (``root``: the thread's first message, when the store knows it; see ``references_for``)."""
    assert mail.sender is not None, "the policy only lets mail with a sender through"
    # the address as written: only its domain is case-insensitive everywhere
    recipient = mail.sender_address or mail.sender
    msg = EmailMessage(policy=POLICY)
    msg["From"] = formataddr((_clean(from_name), from_address))
    msg["To"] = formataddr((_clean(mail.sender_name), recipient))
    msg["Subject"] = _subject(mail, str(payload.get("subject") or ""))
    msg["Date"] = formatdate(localtime=False, usegmt=True)
    msg["Message-ID"] = message_id
    if not is_derived_id(mail.message_id) and _WRITABLE_ID.fullmatch(mail.message_id):
        msg.set_raw("In-Reply-To", mail.message_id)
    refs = [ref for ref in references_for(mail, root) if _WRITABLE_ID.fullmatch(ref)]
    if refs:
        msg.set_raw("References", _folded_ids("References", refs))
    msg["Auto-Submitted"] = "auto-replied"
    msg["X-Auto-Response-Suppress"] = "All"
    for name, value in _extra_headers(payload.get("headers")):
        msg[name] = value
    msg.set_content(str(payload.get("text") or ""), charset="utf-8", cte="quoted-printable")
    html = payload.get("html")
    if html:
        msg.add_alternative(str(html), subtype="html", charset="utf-8", cte="quoted-printable")
    _attach(msg, payload.get("attachments") or [], max_attachment_bytes)
    return OutboundMail(
        sender=from_address,
        recipients=(recipient,),
        message_id=message_id,
        message=msg.as_string(policy=POLICY),
        in_reply_to=mail.message_id,
    )


def _folded_ids(name: str, ids: Sequence[str]) -> str:
    """``ids`` as the value of header ``name``, folded between ids at 78 columns where they
    fit; an id itself is never split or encoded (clients thread by the id as written)."""
    lines = [ids[0]]
    width = len(name) + 2 + len(ids[0])
    for item in ids[1:]:
        if width + 1 + len(item) > _COLUMNS:
            lines.append(f" {item}")
            width = 1 + len(item)
        else:
            lines[-1] += f" {item}"
            width += 1 + len(item)
    return "\n".join(lines)


def _clean(value: str) -> str:
    return " ".join(value.replace("\r", " ").replace("\n", " ").split())


def _extra_headers(headers: Any) -> list[tuple[str, str]]:
    if not isinstance(headers, Mapping):
        return []
    out: list[tuple[str, str]] = []
    for name, value in headers.items():
        name = str(name).strip()
        if not re.fullmatch(r"[A-Za-z0-9-]{1,60}", name) or name.lower() in _OWN_HEADERS:
            continue
        out.append((name, _clean(str(value))))
    return out


def _attach(msg: EmailMessage, entries: Sequence[Any], budget: int) -> None:
    # ``email_files`` settled before rendering which files fit the budget, and both parts
    # already say each entry here is attached: a file left out now (it grew or went away since)
    # makes the reply say what it does not carry, so that is an ERROR, never a quiet skip.
    used = 0
    for entry in entries:
        if not isinstance(entry, Mapping) or not entry.get("path"):
            continue
        path = Path(str(entry["path"]))
        try:
            size = path.stat().st_size
            if used + wire_size(size) > budget:
                log.error(
                    "email: not attaching %s, though the reply says it is attached: it no longer"
                    " fits email.max_attachment_bytes (%d)",
                    path.name,
                    budget,
                )
                continue
            data = path.read_bytes()
        except OSError as exc:
            log.error(
                "email: not attaching %s, though the reply says it is attached: %s",
                path.name,
                exc.strerror or exc,
            )
            continue
        used += wire_size(len(data))
        # the renderer's name, which the reply's reference lists: cleaning it again keeps it
        filename = email_file_name(str(entry.get("filename") or path.name))
        media_type = str(entry.get("media_type") or "") or (
            mimetypes.guess_type(filename)[0] or "application/octet-stream"
        )
        maintype, _, subtype = media_type.partition("/")
        if not maintype or not subtype or maintype == "multipart" or maintype == "message":
            maintype, subtype = "application", "octet-stream"
        # "name" on the Content-Type too: some clients read a part's name only there
        msg.add_attachment(
            data, maintype=maintype, subtype=subtype, filename=filename, params={"name": filename}
        )
