"""An inline forward's text: a mail forwarded to the bot asks about what it forwards.

A sender who forwards a customer's mail ("Can you help with this?" above Gmail's "----------
Forwarded message ---------") asks about the forwarded text, which the quote rules
(``email_text``) would cut as history: the bot then answered "Can you help with this?" blind,
or, with no words of the sender's own, the subject line. Here the forwarded mail's own text
(its header lines dropped, its quotes and signature removed by the same rules) follows the
sender's words, under a "Forwarded message:" line.

A forward is recognised by its client's marker line (Gmail, Thunderbird, mutt, Apple Mail; in
English, German, French, Spanish, Italian, Dutch, Portuguese and Swedish), or, when the subject
says it is a forward (``Fwd:``, ``FW:``, ``WG:``, ``TR:``, ``RV:`` …), by the reply header
Outlook writes above it. A marker inside quoted history (below an earlier reply header, or
quoted with ``>``) is history, not a forward. Attached messages (``message/rfc822``) stay
attachments: they are never the question.
"""

from __future__ import annotations

import re

from bot.connectors.email_text import history_start, looks_quoted, strip_quoted_text

_MARKER = re.compile(
    r"^\s*(?:-{2,}\s*(?:forwarded message|weitergeleitete nachricht|message transféré|"
    r"mensaje reenviado|messaggio inoltrato|doorgestuurd bericht|mensagem encaminhada|"
    r"vidarebefordrat meddelande|forwarded message from\b.*?)\s*-{2,}|"
    r"(?:begin forwarded message|anfang der weitergeleiteten nachricht|"
    r"début du message réexpédié|inicio del mensaje reenviado|inizio messaggio inoltrato|"
    r"begin doorgestuurd bericht|início da mensagem reencaminhada)\s*:)\s*$",
    re.IGNORECASE,
)
_END = re.compile(r"^\s*-{2,}\s*end (?:of )?forwarded message\s*-{2,}\s*$", re.IGNORECASE)
_FORWARD_SUBJECT = re.compile(r"^\s*(?:fwd?|wg|tr|rv|enc|doorst|vs|vb)\s*:", re.IGNORECASE)
_HEADER_LINE = re.compile(r"^\s*\*?[^\s:>][^:]{0,40}:\*?(?:\s|$)")
_MARKER_CHARS = 400
"""Longer lines are never a marker (and a hostile megabyte line costs no regex time)."""
_SIGNATURES = ("-- ", "--")
_SENTINEL = "\x00citecast-forward\x00"
LABEL = "Forwarded message:"


def forwarded_question(
    text: str, subject: str, *, flowed: bool = False, delsp: bool = False
) -> str | None:
    """The sender's own words, then ``Forwarded message:`` and the forwarded mail's text, for
    a plain-text body that forwards a mail inline; None for any other body (and for a forward
    whose forwarded text is empty), which the ordinary quote rules then read."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    start = _forward_start(lines, text, subject)
    if start is None:
        return None
    above = lines[:start]
    # Gmail and Thunderbird put the sender's signature above the forwarded mail: it ends
    # the sender's words, not the forward
    signature = next((i for i, line in enumerate(above) if line in _SIGNATURES), None)
    if signature is not None:
        above = above[:signature]
    own = strip_quoted_text("\n".join([*above, _SENTINEL]), flowed=flowed, delsp=delsp)
    if not own.endswith(_SENTINEL):
        return None  # the marker sits below a reply header: history, not a forward
    body = _without_headers(lines, start)
    tail: list[str] = []
    for index, line in enumerate(body):
        if len(line) <= _MARKER_CHARS and _END.match(line):
            body, tail = body[:index], body[index + 1 :]
            break
    forwarded = strip_quoted_text("\n".join(body), flowed=flowed, delsp=delsp)
    if not forwarded:
        return None
    after = strip_quoted_text("\n".join(tail), flowed=flowed, delsp=delsp)
    parts = (own[: -len(_SENTINEL)].strip(), f"{LABEL}\n{forwarded}", after)
    return "\n\n".join(part for part in parts if part)


def _forward_start(lines: list[str], text: str, subject: str) -> int | None:
    marker = next(
        (i for i, line in enumerate(lines) if _is_marker(line) and not looks_quoted(line)), None
    )
    if marker is not None:
        return marker
    if _FORWARD_SUBJECT.match(subject):
        return history_start(text)  # Outlook: a rule or "-----Original Message-----" and headers
    return None


def _is_marker(line: str) -> bool:
    return len(line) <= _MARKER_CHARS and _MARKER.match(line) is not None


def _without_headers(lines: list[str], start: int) -> list[str]:
    """The forwarded mail's body: after the marker line, the header lines (``From:``,
    ``Date:``, ``Subject:``, ``To:`` …, up to the first blank line) are dropped."""
    index = start
    if _is_marker(lines[index]) or not _HEADER_LINE.match(lines[index]):
        index += 1  # a marker or rule line ("Begin forwarded message:"), not yet a header
    while index < len(lines) and not lines[index].strip():
        index += 1
    if index < len(lines) and _HEADER_LINE.match(lines[index]):
        while index < len(lines) and lines[index].strip():
            index += 1
    return lines[index:]
