"""How the resolver writes the separators between markers it keeps and removes.

``[1], [9].`` and ``[9] and [1].`` become ``[^1].``: a removed marker takes one separator next
to it (``,``, ``;``, ``&``, the word ``and``), while separators before the writer's own words
(``Fact [9] and more``) are text. :class:`SeparatedText` decides what held separators become
once that is known; at a line start (also after a list item's marker, quote arrows or heading
hashes) they read as text there reads after a removed marker: without the spaces before them,
and without a comma or semicolon that nothing before it needs (``[9], see`` reads ``see``). A
base of :class:`bot.resolver_text.ResolvedText` (which owns the state) for the same reason that
class is one: these run on the resolver's hot path.
"""

from __future__ import annotations

import re

from bot.marker_groups import GroupedText
from bot.marker_lines import SEPARATED, SEPARATORS

_LONE_SEPARATORS = re.compile(r"(?:[ \t]*[,;])*")


def line_start_after_gap(text: str, prefix: bool) -> str:
    """``text`` after a removed marker at a line start, without the commas and semicolons it
    begins with: they separated the marker from what follows, and nothing is before them now
    (``[9], see the guide`` reads ``see the guide``). After a line ``prefix`` one space stays
    where they were (``- [9], b`` stays the item ``- b``), and one space replaces 4 columns or
    more, which after a list item's marker or quote arrows would start code (``> [9]     x``)."""
    end = _LONE_SEPARATORS.match(text).end()  # type: ignore[union-attr]  # matches "" too
    if not prefix:
        return text[end:]
    rest = text[end:].lstrip(" \t")
    if end or len(text[: len(text) - len(rest)].expandtabs(4)) >= 4:
        return " " + rest
    return text


class SeparatedText(GroupedText):
    """The separator half of :class:`bot.resolver_text.ResolvedText` (see its attributes)."""

    _pieces: list[str]
    _sep_at: int
    _sep_before: bool
    _sep_spare: str

    def _end_separators(self) -> None:
        """At a marker: separators held but only begun (``[1] an [9]``) are the writer's text."""
        at = self._sep_at
        spare = self._sep_before and self._gap
        pending = self._sep_spare if spare else self._held[at:]
        if SEPARATORS.fullmatch(pending) or SEPARATED.fullmatch(pending):
            return
        if spare:  # as if no separator were held: the gap took those before it
            self._held, self._sep_spare = self._held[:at] + pending, ""
        elif self._gap:
            self._held = self._held[:at] + self._written_after_gap(at)
        self._sep_at = -1
        self._gap = False

    def _written_after_gap(self, at: int) -> str:
        """The separators held from ``at`` after a removed marker, as text (``[9] an [1]``).

        At a line start they lose the spaces before them, as any text there does after a
        removed marker, and a comma or semicolon before them (``line_start_after_gap``); after
        a line prefix (``- [9] an [1]``) the item has content now.
        """
        pending = self._held[at:]
        if self._prefix_at >= 0 and self._open_at < 0:
            self._prefix_at = -1
            return line_start_after_gap(pending, True)
        last = self._held[at - 1] if at else (self._pieces[-1][-1:] if self._pieces else "")
        if last in ("", "\n"):
            return line_start_after_gap(pending, False).lstrip(" \t")
        return pending

    def _separators_at_end(self) -> str:
        """``_held`` as written at the end, separators after a removed marker held in it.

        They are the writer's text (``[9] and`` reads ``and``), unless they were only a comma or
        semicolon after a line prefix, which then held nothing: ``- [9],`` leaves no item.
        """
        prefix_at = self._prefix_at if self._open_at < 0 else -1
        after = self._written_after_gap(self._sep_at)
        if prefix_at < 0 or after.strip(" \t"):
            return self._held[: self._sep_at] + after
        return self._held[:prefix_at]
