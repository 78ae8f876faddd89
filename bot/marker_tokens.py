"""The text tokens the marker scanner passes on besides markers (bot.markers).

A scan yields :data:`Token` pieces: a :class:`bot.marker_parse.Marker`, plain text (``str``),
or one of the ``str`` subclasses here, which tell the resolver a piece is not ordinary text.
"""

from __future__ import annotations

from bot.marker_parse import Marker

__all__ = ["Token", "Underline", "Verbatim"]


class Verbatim(str):
    """Text the scanner passes on as written and no one may write into: code and math. (A
    ``str``, so it reads as text; the resolver cites no record label inside it.)"""

    __slots__ = ()


class Underline(str):
    """A setext heading's underline line (``===`` or ``---`` right after a paragraph line, with
    its line break), passed on as its own token: a removal that empties the heading above it
    would leave it as text (``===``) or a rule, and the code after it as that text's
    continuation (see :meth:`bot.resolver.StreamResolver._underline`)."""

    __slots__ = ()


Token = str | Marker
