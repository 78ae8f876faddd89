"""Whether a cited file may travel with the message, and the name it travels under.

Part of :func:`renderers.base.citation_form`'s decision: a file is attached only when the
channel takes its media type and its size, and a file the connector could not read (gone from
disk since ingest) is never attached, so no reference says "(attached: …)" for a file that
does not arrive; it shows as a signed download link or by name instead.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.bidi_controls import without_bidi_controls
from bot.models import Source


def attachment_name(name: str) -> str:
    """``name`` as a file travels under: its last path part, without control characters or
    surrounding spaces and dots (which mail clients and file systems drop), at most 200
    characters; ``attachment`` when nothing is left. Renderers name attachments so and
    connectors send them so, so a reference always names the file that arrives."""
    name = name.replace("\\", "/").rsplit("/", 1)[-1]
    name = without_bidi_controls(name)  # "invoice\u202egpj.exe" shows as "invoiceexe.jpg"
    name = "".join(ch for ch in name if ch >= " " and ch != "\x7f").strip().strip(".")
    return name[:200] or "attachment"


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
