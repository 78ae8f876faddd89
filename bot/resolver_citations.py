"""How the resolver writes the citations it keeps (a base of resolver_text.ResolvedText).

:meth:`CitationText._write_citations` writes a run of ``[^n]`` footnotes where a marker was, or
records that the marker was removed (a *gap*): each source once within a run of adjacent
markers, separators next to a removed marker taken with it, an opener and lead-in words kept
only while the group holds a citation, and a zero-width space or backslash where the footnote
would otherwise join the text before it into other markdown. Split out of ``resolver_text``
for size; a base class, as its others are, for the hot path's sake.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from bot.marker_groups import only_separators
from bot.marker_lead_ins import is_lead_in
from bot.marker_lines import OPENERS, trailing_backslashes
from bot.marker_parse import Hit, parse_bracket
from bot.resolver_gaps import GapLines

if TYPE_CHECKING:
    from bot.markers import MarkerScanner

__all__ = ["CitationText"]


class CitationText(GapLines):
    """Writes the kept citations' footnotes and notes the removed ones (see the module)."""

    _adjacent: tuple[int, ...]
    _scanner: MarkerScanner

    def _sentence_opened(self) -> bool:
        """Whether lead-in words that open a sentence are held (not an opener's group)."""
        return self._open_at >= 0 and self._held[self._open_at] not in OPENERS

    def _write_citations(self, lead: str, numbers: Iterable[int]) -> None:
        if self._sep_at >= 0:
            self._end_separators()
        if self._open_at >= 0 and not self._gap and (self._open_words or self._sentence_opened()):
            at = self._open_at
            words = self._held[at + (self._held[at] in OPENERS) : at + 1 + self._open_words]
            if not is_lead_in(words):
                # "(se [9])": only the beginning of lead-in words: text, and the line's content
                self._open_at = self._prefix_at = -1
        adjacent = self._adjacent
        shown = [n for n in numbers if n not in adjacent] if adjacent else list(numbers)
        if not shown:
            # "[9], [10]" or "[1], [9], [10]": a separator between two removed markers goes
            if self._sep_at >= 0 and not self._sep_before:
                self._held = self._held[: self._sep_at]
                self._sep_at = -1
            self._sep_spare = ""
            if not self._gap:
                self._gap, self._gap_lead = True, lead
            if self._sentence_opened():
                # what follows the removed markers ends the sentence or not: a line break
                # before them ("See" / "[9].") is none of it, and the separators between two
                # of them go, as without the words ("Via [7] and [9], you" -> "Via, you")
                self._held = self._held[: self._open_at + 1 + self._open_words]
            return
        if self._sep_at >= 0:
            if not self._sep_before:
                self._held = self._held[: self._sep_at]  # "[9], [1]" -> "[^1]"
            self._sep_at = -1  # "[1], [9], [2]": the first comma stays
            self._sep_spare = ""
        opened = self._gap and self._open_at >= 0
        if opened:
            kept = self._open_at + 1 + self._open_words
            if only_separators(self._held[kept:]):
                # "([9], [1])": the citation follows the opener (and its lead-in words),
                # without the removed separators: "(see [9], [1])" -> "(see [^1])"
                broke = "\n" in self._held[kept:] or "\r" in self._held[kept:]
                self._held = self._held[:kept]
            else:
                opened = False  # "(see [9] an [1])": the writer's "an" stays, as in "[9] an [1]"
        if adjacent or opened:
            lead = self._gap_lead if opened and self._open_words else ""
            if opened and not lead and self._open_words and broke:
                lead = " "  # "(see" / "[9], [1])": the line break was a space between words
        elif not lead and self._gap:
            lead = self._gap_lead  # "fact [9][1]": the citation keeps the space before the run
        if not lead and not self._held and self._pieces:
            if self._pieces[-1][-1] in "[^":
                # "[" then "[^n]": "[[[1]]]" must not read as "[[^1]]"; "^" then "[^n]":
                # "^^[1]" keeps one caret, which must not read as the footnote's ("^[^1]")
                lead = "\u200b"
            elif trailing_backslashes(self._pieces) % 2:
                # an odd backslash would escape the "[": one more escapes the backslash, which
                # reads as written ("a\\【2】" -> "a\\\\[^1]"); after a gap, _unglue separates
                lead = "\u200b" if self._gap else "\\"
        lead = self._outside_destination(lead)
        if len(shown) == 1:
            self._text(lead + _footnote(shown[0]))
        else:
            self._text(lead + "".join(_footnote(n) for n in shown))
        # the run goes on until text other than spaces: each source appears once in it
        self._adjacent = adjacent + tuple(shown)

    def _outside_destination(self, lead: str) -> str:
        """``lead`` for a footnote that would otherwise stand in a link's destination.

        Text the scanner read as no link (``[2](x <citation>1</citation>)``: a space, a
        tag) could become one around the footnote (``[2](x[^1])``), which hides the citation
        in a URL: a space before the footnote ends the destination (``[2](x [^1])``), and
        with none written yet (``[a]([ 2])``) the held ``(`` is escaped (``[a]\\([^1])``).
        """
        tail = (self._last_line(_DEST_TAIL) + lead)[-_DEST_TAIL:]
        if "](" not in tail:
            return lead  # (the common case, decided without a regex)
        dest = _DEST_OPEN.search(tail)
        if dest is None or "`" in dest[0]:
            return lead  # (a code span's text is no destination)
        if dest.end() > dest.end("spaces"):
            return lead + " "
        at = dest.start()
        label = tail.rfind("[", 0, at)
        if label >= 0 and tail.startswith("[^", label):
            return lead  # a footnote is never a link's text: "[^1]([^2])"
        paren = len(self._held) - (len(tail) - len(lead) - at - 1)
        if (
            paren < 0
            or self._held[paren] != "("
            or self._reads_as_marker(tail[label : at + 1] if label >= 0 else "")
        ):
            # escaped, the "(" would no longer keep "[2]" before it text ("[2]([2]"): the
            # space ends the destination at least to the scanner (mistune allows it there)
            return lead + " "
        self._held = self._held[:paren] + "\\" + self._held[paren:]
        if self._open_at >= paren:
            self._open_at += 1
        return lead

    def _reads_as_marker(self, brackets: str) -> bool:
        """Whether ``brackets`` (``[…]`` or empty) reads as a marker when no ``(`` follows."""
        if not brackets:
            return False
        found = parse_bracket(brackets + "\\", 0, True, self._scanner.grammar, " ")
        return isinstance(found, Hit) and found.marker is not None


# a link destination still open, spaces before it (CommonMark allows them), nested parens once
_DEST_OPEN = re.compile(
    r"\]\((?P<spaces>[ \t]*+)(?:[^\s()<>]++|\([^\s()<>]*+\))*+(?:\([^\s()<>]*+)?\Z"
)
_DEST_TAIL: Final = 256  # how far back a destination is looked for (a bounded look)


@functools.lru_cache(maxsize=512)
def _footnote(n: int) -> str:
    return f"[^{n}]"
