"""What the parts of an inbound mail say besides its text: calendar scheduling, attached files.

Calendar scheduling mail (iMIP, RFC 6047): an invitation from Outlook, Google Calendar, Teams or
Zoom, and the "Accepted:"/"Declined:" answer a calendar sends back, carry the event as a
``text/calendar`` part with a ``method`` parameter (``REQUEST``, ``REPLY``, ``CANCEL``, …; RFC
6047 §2.4 requires it), usually next to a text part that reads like a message ("You have been
invited to …"). Nobody asks anything: such mail gets no answer. An ``.ics`` file a person
attaches to a question (a named attachment with no ``method``) is a file like any other.

Files: attachments are never read. A mail that carries files gets an answer that says so
(one whose only text is its subject: that its subject was answered), so the sender does not
think the file was read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from email.message import Message

_CALENDAR_TYPES = frozenset({"text/calendar", "application/ics"})
# a signed mail's signature (S/MIME smime.p7s, PGP) is a part with a file name, not a file sent
_SIGNATURES = frozenset(
    {"application/pkcs7-signature", "application/x-pkcs7-signature", "application/pgp-signature"}
)


def is_scheduling(parts: Iterable[Message]) -> bool:
    """True when one of the body's leaf ``parts`` is iMIP calendar data: with a ``method``,
    or inline (an alternative of the body, not a file)."""
    return any(_scheduling_part(part) for part in parts)


def _scheduling_part(part: Message) -> bool:
    if part.get_content_type() not in _CALENDAR_TYPES:
        return False
    if _safe(part.get_param, "method"):
        return True
    return part.get_content_type() == "text/calendar" and not _is_file(part)


def carries_files(msg: Message) -> bool:
    """True when ``msg`` has an attached file or an attached mail (an inline image the HTML
    shows, one with a ``Content-ID``, is part of the text, and a signature is no file)."""
    for part in msg.walk():
        if part is msg:
            continue
        if part.get_content_maintype() == "message":
            return True
        if part.is_multipart() or part.get_content_type() in _SIGNATURES:
            continue
        if _is_file(part) and "content-id" not in part:
            return True
    return False


def _is_file(part: Message) -> bool:
    disposition = (part.get("content-disposition") or "").split(";")[0].strip().lower()
    return disposition == "attachment" or bool(_safe(part.get_filename))


def _safe(read: Callable[..., object], *args: str) -> object:
    """``read(*args)``, or None when a defective header makes the stdlib raise."""
    try:
        return read(*args)
    except Exception:
        return None
