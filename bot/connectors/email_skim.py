"""Parsing a large inbound mail without holding its attachments: long runs of body lines are
set aside before the stdlib parser sees them.

``email.message_from_bytes`` holds a mail about eight times over (its decoded text, its lines,
each part's joined payload): ~200 MB for a 25 MB mail, although attachments are never read.
Here every run of at least ``MIN_RUN`` bytes of *plain* lines is replaced by one plain line
naming it before the mail is parsed. A plain line is one that ``email.feedparser`` cannot read
as structure: not blank, not a header or a header's continuation, not ``From ``, not a
boundary (it does not start with ``-``), with no bare CR (which would split it there). The
parser reads a run of them the same way whatever its length (the first ends a header block,
the rest are body), so the skimmed mail has the same parts with the same headers; only bodies,
preambles and epilogues are shorter (``test_email_skim`` checks this against the stdlib
parser). The runs inside the text bodies that will be read are then put back (the first
``keep_bytes`` of each, cut at a line end) and the mail is parsed again. What is allocated
besides the raw bytes: tens of KB for a mail of attachments, ~17 MB for a huge text body (its
first 2 MB, parsed and decoded).
"""

from __future__ import annotations

import email
import email.policy
import heapq
import re
import secrets
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from email.message import Message

from bot.connectors.email_bodies import inline_text_parts

MIN_RUN = 16_384
"""A run of plain lines shorter than this stays as written (small mail is parsed unchanged)."""

# The start of a line the feedparser may read as structure: blank, a continuation, a boundary
# or any line starting with "-", an envelope "From ", a header (RFC 5322 ftext then ":"). A
# lookahead: a match must not take the line feed that starts the next line (a blank line).
_STRUCTURE = re.compile(rb"\n(?=[-\t \r\n]|From |[!-9;-~]*:)")
_BARE_CR = re.compile(rb"\r(?!\n)")


@dataclass(frozen=True)
class Skim:
    """A mail's raw bytes and the runs of plain lines that can be set aside."""

    raw: bytes
    runs: tuple[tuple[int, int], ...]
    """``(start, end)`` of each run in ``raw``: whole lines, each ending in a line feed."""
    marker: bytes
    """What starts the line that stands for a run (random: a body cannot forge one)."""


def skim(raw: bytes, min_run: int = MIN_RUN) -> Skim:
    """The runs of at least ``min_run`` bytes of plain lines in ``raw``."""
    runs: list[tuple[int, int]] = []
    end = 0  # where the last line that may be structure ends
    for start in _structure_lines(raw):
        if start < end:
            continue  # another match on the same line
        if start - end >= min_run:
            runs.append((end, start))
        line_end = raw.find(b"\n", start)
        end = len(raw) if line_end < 0 else line_end + 1
    last = raw.rfind(b"\n") + 1  # a last line without a line feed is never set aside
    if last - end >= min_run:
        runs.append((end, last))
    return Skim(raw, tuple(runs), b"citecast" + secrets.token_hex(8).encode() + b"run")


def _structure_lines(raw: bytes) -> Iterator[int]:
    """The start of every line that may be structure, ascending (repeats allowed)."""
    yield 0  # the first line is the mail's first header
    lines = (found.start() + 1 for found in _STRUCTURE.finditer(raw))
    bare_cr = (raw.rfind(b"\n", 0, found.start()) + 1 for found in _BARE_CR.finditer(raw))
    yield from heapq.merge(lines, bare_cr)


def skimmed(mail: Skim, keep: Collection[int] = (), keep_bytes: int = 0) -> bytes:
    """The mail with each run replaced by one plain line naming it, except the runs in
    ``keep``: of those, the first ``keep_bytes`` are kept (up to a line end), the rest dropped
    (the kept lines already stand where the run stood)."""
    if not mail.runs:
        return mail.raw
    raw = mail.raw
    out: list[bytes] = []
    pos = 0
    for index, (start, end) in enumerate(mail.runs):
        out.append(raw[pos:start])
        if index in keep:
            cut = raw.find(b"\n", start + keep_bytes) + 1 if start + keep_bytes < end else end
            out.append(raw[start : cut if 0 < cut < end else end])
        else:
            eol = b"\r\n" if raw[end - 2 : end] == b"\r\n" else b"\n"
            out.append(b"%s%d.%s" % (mail.marker, index, eol))
        pos = end
    out.append(raw[pos:])
    return b"".join(out)


def runs_named(mail: Skim, text: str) -> set[int]:
    """The runs whose lines stand in ``text`` (a payload of the skimmed mail)."""
    pattern = re.escape(mail.marker.decode()) + r"(\d+)\."
    return {int(found.group(1)) for found in re.finditer(pattern, text)}


def parse_skimmed(mail: Skim, keep_bytes: int) -> Message:
    """The mail parsed (compat32) with its runs set aside, except the first ``keep_bytes`` of
    those inside the inline text bodies that are read. Raises RecursionError as the stdlib
    parser does on MIME nested too deep."""
    msg = email.message_from_bytes(skimmed(mail), policy=email.policy.compat32)
    if not mail.runs:
        return msg
    wanted = _text_runs(mail, msg)
    if not wanted:
        return msg
    del msg  # parsed again below: hold one tree at a time
    data = skimmed(mail, wanted, keep_bytes)
    return email.message_from_bytes(data, policy=email.policy.compat32)


def _text_runs(mail: Skim, msg: Message) -> set[int]:
    """The runs inside the first inline text/plain part and the text/html parts up to the
    first one with a run (an earlier empty HTML part is passed over when read)."""
    wanted: set[int] = set()
    plain_seen = html_seen = False
    for part in inline_text_parts(msg):
        plain = part.get_content_type() == "text/plain"
        if (plain and plain_seen) or (not plain and html_seen):
            continue
        try:
            payload = part.get_payload()
        except Exception:  # a defective part: nothing of it is read as text either
            payload = None
        found = runs_named(mail, payload) if isinstance(payload, str) else set()
        wanted |= found
        if plain:
            plain_seen = True
        elif found:
            html_seen = True
    return wanted
