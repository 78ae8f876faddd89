"""Whether a cited file may travel with the message, and the name it travels under.

Part of :func:`renderers.base.citation_form`'s decision: a file is attached only when the
channel takes its media type and its size, and a file the connector could not read (gone from
disk since ingest) is never attached, so no reference says "(attached: …)" for a file that
does not arrive; it shows as a signed download link or by name instead.

A name too long to travel whole loses the end of its stem, never its extension (``x…x.pdf``
stays a PDF to the reader's system), and only between whole characters (a flag or an accented
letter is not cut in two); a numbered name (``guide (2).pdf``) is fitted the same way, so
cleaning it again keeps its number.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from bot.bidi_controls import without_bidi_controls
from bot.grapheme_cuts import grapheme_cut
from bot.models import Source
from renderers.spaces import one_line

MAX_NAME_CHARS: Final = 200
"""The longest name a file travels under (characters)."""

# the longest ending after a name's last dot read as its extension (".markdown", ".numbers");
# a longer one, or one holding a space ("Minutes. Final version"), is words after a full stop
_MAX_EXTENSION: Final = 16
# what mail clients and file systems drop from either end of a name
_ENDS = re.compile(r"^[\s.]+|[\s.]+$")
_TRAILING = re.compile(r"[\s.]+$")


def attachment_name(name: str) -> str:
    """``name`` as a file travels under: its last path part, without control characters or
    surrounding spaces and dots (which mail clients and file systems drop), on one line as a
    title is (a line break or a run of spaces is one space), at most :data:`MAX_NAME_CHARS`
    characters, its stem shortened to keep its extension; ``attachment`` when nothing is left.
    Renderers name attachments so and connectors send them so, so a reference always names the
    file that arrives. Cleaning a cleaned name changes nothing."""
    name = name.replace("\\", "/").rsplit("/", 1)[-1]
    name = without_bidi_controls(name)  # "invoice\u202egpj.exe" shows as "invoiceexe.jpg"
    # CR, LF and tab are what without_bidi_controls keeps of the controls: made a space, so
    # "report\r\nBcc.pdf" is "report Bcc.pdf" as its title shows it, not "reportBcc.pdf"
    name = _ENDS.sub("", one_line(name))
    if len(name) <= MAX_NAME_CHARS:
        return name or "attachment"
    stem, extension = split_extension(name)
    return _fitted(stem, extension)


def numbered_name(name: str, k: int) -> str:
    """A cleaned ``name`` told apart from another file's by ``k``: ``stem (k).ext``, its stem
    shortened as :func:`attachment_name` shortens one, so the name stays within
    :data:`MAX_NAME_CHARS` and cleaning it again keeps the number."""
    stem, extension = split_extension(name)
    # "a .pdf" numbered: "a (2).pdf", one space before the number, as one_line would leave it
    return _fitted(stem.rstrip(), f" ({k}){extension}")


def split_extension(name: str) -> tuple[str, str]:
    """``name`` as its stem and its extension with the dot (``("guide", ".pdf")``); the
    extension is ``""`` when the name has none (no dot after its first character, or an
    ending too long or holding a space to be one)."""
    stem, dot, extension = name.rpartition(".")
    if not stem or not extension or len(extension) > _MAX_EXTENSION:
        return name, ""
    if any(ch.isspace() for ch in extension):
        return name, ""
    return stem, dot + extension


def _fitted(stem: str, tail: str) -> str:
    """``stem + tail`` within :data:`MAX_NAME_CHARS`: the stem cut between whole characters
    where it must be, without the spaces or dots a cut can leave at its end."""
    room = MAX_NAME_CHARS - len(tail)
    if len(stem) > room:
        stem = _TRAILING.sub("", stem[: grapheme_cut(stem, room)])
    return f"{stem}{tail}"


def media_allowed(media_type: str | None, allowed: tuple[str, ...]) -> bool:
    """Whether a file of ``media_type`` may be attached where ``allowed`` types are (``type/*``
    takes a whole major type; empty takes any type, but not a file of unknown type)."""
    if not allowed:
        return True
    if media_type is None:
        return False
    major = media_type.split("/", 1)[0]
    return media_type in allowed or f"{major}/*" in allowed


def size_allowed(
    source: Source, file_size: Callable[[Source], int | None] | None, max_bytes: int
) -> bool:
    """Whether ``source``'s file may be attached by its size.

    ``file_size`` None: the caller knows no sizes (a renderer run without a connector), so the
    size does not decide. Given, it answers None for a file it cannot read, which cannot be
    uploaded and so is not attached; a readable file must fit ``max_bytes``.
    """
    if file_size is None:
        return True
    size = file_size(source)
    return size is not None and size <= max_bytes
