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
from collections.abc import Iterable

from bot.marker_groups import only_separators
from bot.marker_lead_ins import is_lead_in
from bot.marker_lines import OPENERS, trailing_backslashes
from bot.resolver_gaps import GapLines

__all__ = ["CitationText"]


class CitationText(GapLines):
    """Writes the kept citations' footnotes and notes the removed ones (see the module)."""

    _adjacent: tuple[int, ...]

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
            if self._pieces[-1][-1] == "[":
                lead = "\u200b"  # "[" then "[^n]": "[[[1]]]" must not read as "[[^1]]"
            elif trailing_backslashes(self._pieces) % 2:
                # an odd backslash would escape the "[": one more escapes the backslash, which
                # reads as written ("a\\【2】" -> "a\\\\[^1]"); after a gap, _unglue separates
                lead = "\u200b" if self._gap else "\\"
        if len(shown) == 1:
            self._text(lead + _footnote(shown[0]))
        else:
            self._text(lead + "".join(_footnote(n) for n in shown))
        # the run goes on until text other than spaces: each source appears once in it
        self._adjacent = adjacent + tuple(shown)


@functools.lru_cache(maxsize=512)
def _footnote(n: int) -> str:
    return f"[^{n}]"
