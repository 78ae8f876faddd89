"""How the resolver writes the answer text around the markers it keeps and removes.

:class:`ResolvedText` is the base of :class:`bot.resolver.StreamResolver`: the resolver reads
markers and decides citations; this writes the text pieces and the ``[^n]`` footnotes, and makes
sure a removed marker leaves nothing behind that it alone held up. What may still depend on
what follows is *held* (``_held``) rather than written: trailing spaces (a marker may follow
and take them), an opener ``(`` (its group may hold only removed markers: ``Fact ([9]).``
becomes ``Fact.``), a bare line prefix (``- [9]`` leaves no empty list item), and separators
next to a citation (``[1], [9].`` becomes ``[^1].``). After a removed marker (the *gap*),
:meth:`ResolvedText._unglue` decides what the following text keeps, so the removal can neither
leave an empty construct nor glue characters into new markdown syntax.

A base class rather than a collaborator on purpose: these methods run once per scanned token on
the resolver's hot path (``bench/resolve.py``), where another attribute hop costs measurably.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Final

from bot.marker_lines import OPENERS, PREFIX_LAST, bare_prefix, ends_inside_marker, reindent
from bot.marker_parse import MAX_TAG

_ONLY_CITATIONS = re.compile(r"[ \t]*(?:\[\^\d+\])+")
_SEPARATORS = re.compile(r"[ \t,;]*")
_SEPARATED = re.compile(r"[ \t]*[,;][ \t,;]*")
_SEPARATOR_CHARS: Final = frozenset(" \t,;")
_MAX_GROUP = 64  # what an opener holds back after removed markers: separators and spaces
# a token ending in one of these may open a group or a line prefix the resolver holds back
_HOLD_LAST: Final = frozenset(" \t\r\n") | frozenset(OPENERS) | PREFIX_LAST
SLOW_LAST: Final = _HOLD_LAST | frozenset(",;")
"""Last characters of a text piece that must go through :meth:`ResolvedText._text` (they may
be held): a piece ending otherwise can take the resolver's fast path."""


class ResolvedText:
    """The answer text as it is written: ``_pieces`` (final) and ``_held`` (still undecided)."""

    def __init__(self) -> None:
        self._pieces: list[str] = []
        self._tail = ""  # the end of the last line of _pieces[: _tail_n] (see _last_line)
        self._tail_n = 0
        self._held = ""
        self._adjacent: tuple[int, ...] = ()
        self._gap = False
        self._gap_lead = ""  # the spaces before the first removed marker of the gap
        self._after_gap = ""  # spaces and a "\r" held while a removed marker's line is decided
        # what of _held is not only spaces: an opener "(" (at that index of _held) that may
        # hold only removed markers, and a bare line prefix ("- ", "## ") that may stay empty
        self._open_at = -1
        self._prefix_at = -1
        self._heading = False
        # separators held at that index of _held: a removed marker next to them takes them
        # ("[1], [9]." and "[9], [1]." both lose the comma); _sep_before: they came first
        self._sep_at = -1
        self._sep_before = False
        self._sep_spare = ""  # separators after the gap while those before it are held
        self._indent: str | None = None  # the indentation for the line after a removed line

    def _text(self, text: str) -> None:
        if self._indent is not None and text:
            text, self._indent = reindent(text, self._indent), None
        if self._gap and text:
            text = self._unglue(text)
        if not text:
            return
        if text[0] == ":" and self._adjacent and _ONLY_CITATIONS.fullmatch(self._last_line()):
            text = "\\" + text  # "[^1]: …" at a line start would read as a definition
        if self._sep_at >= 0:
            if _SEPARATORS.fullmatch(text):
                self._held += text
                return
            self._sep_at = -1  # text follows: the separators are written with it
        elif self._adjacent and text[-1] in _SEPARATOR_CHARS and _SEPARATED.fullmatch(text):
            # "[1], " may be followed by a marker that is removed: the comma waits for it
            self._adjacent = ()
            self._sep_at, self._sep_before = len(self._held), True
            self._held += text
            return
        self._adjacent = ()
        body = text.rstrip(" \t\r\n")
        if not body:
            if (self._open_at >= 0 or self._prefix_at >= 0) and ("\n" in text or "\r" in text):
                # the line ended: an opener or line prefix before it was the writer's own
                self._open_at = self._prefix_at = -1
            self._held += text
            return
        combined = self._held + body if self._held else body
        if (
            body[-1] in _HOLD_LAST
            and "\n" not in text[len(body) :]
            and "\r" not in text[len(body) :]
        ):
            cut = self._hold(combined)
            if cut:
                self._pieces.append(combined[:cut])
            self._held = combined[cut:] + text[len(body) :]
            return
        self._open_at = self._prefix_at = self._sep_at = -1
        self._pieces.append(combined)
        self._held = text[len(body) :]

    def _hold(self, text: str) -> int:
        """Where the tail of ``text`` that must wait for what follows begins.

        An opener "(" waits, with the spaces before it, until it is known whether the group
        holds only removed markers (``Fact ([9]).`` becomes ``Fact.``); a line that is only a
        list item's marker, a heading's hashes or blockquote arrows waits until it is known
        whether content follows (``- [9]`` leaves no empty item).
        """
        self._open_at = self._prefix_at = self._sep_at = -1
        cut = len(text)
        opener = -1
        if text[-1] in OPENERS:
            opener = len(text) - 1
            cut = _space_start(text, opener)
        line = text.rfind("\n", 0, cut) + 1
        if 0 < cut - line <= 32 and (line or not self._pieces) and text[cut - 1] in PREFIX_LAST:
            kind = bare_prefix(text, line, cut)
            if kind is not None:
                self._heading = kind == "heading"
                cut = _space_start(text, line)
                self._prefix_at = line - cut
        if opener >= 0:
            self._open_at = opener - cut
        return cut

    def _trailing_backslashes(self) -> int:
        count = 0
        for piece in reversed(self._pieces):
            kept = piece.rstrip("\\")
            count += len(piece) - len(kept)
            if kept:
                break
        return count

    def _last_line(self, limit: int | None = None) -> str:
        """The output's last line; with ``limit``, at least its last ``limit`` characters."""
        if limit is not None:
            # asked at each removed marker: the pieces written since the last time are folded
            # into a bounded tail, so many short pieces are not walked again each time
            new = self._pieces[self._tail_n :]
            if new:
                self._tail_n = len(self._pieces)
                joined = "".join(new)
                cut = joined.rfind("\n")
                line = joined[cut + 1 :] if cut >= 0 else self._tail + joined
                self._tail = line[-limit:] if len(line) > 2 * limit else line
            return self._tail + self._held
        tail: list[str] = [self._held]
        size = len(self._held)
        for piece in reversed(self._pieces):
            cut = piece.rfind("\n")
            tail.append(piece[cut + 1 :])
            size += len(piece)
            if cut >= 0 or (limit is not None and size >= limit):
                break
        return "".join(reversed(tail))

    def _unglue(self, text: str) -> str:
        """Text after a removed marker, so the removal cannot create new markdown syntax.

        A line that held only dropped markers disappears with its line break (with its list
        item marker or blockquote arrows; a heading's hashes leave the line break that ended the
        paragraph before), and at a line start the spaces after a dropped marker go too; the
        line after it loses an indentation that would make it code. A group that held only
        dropped markers (``([9], [10])``) goes with its brackets and the spaces before them.
        Where the removal would glue text into new syntax (a fence, list item or table row at a
        line start; a backtick, dollar, tilde, backslash, ``<``, ``[`` or ``【`` meeting what
        follows; the rest of a marker after its unclosed start, as in ``[^[9]1]``) a zero-width
        space keeps the two apart. The marker grammar never reads one inside a marker.
        """
        if self._open_at >= 0:
            text = self._close_group(text)
            if not text or not self._gap:
                return text
        sep_at = self._sep_at
        if sep_at >= 0:
            # what follows decides; whatever the split, the text after the gap is then read
            # as one piece, as a whole-text resolve() reads it
            if _SEPARATORS.fullmatch(text):
                if self._sep_before:
                    self._sep_spare += text
                else:
                    self._held += text
                return ""
            if self._sep_before:
                # "[1], [9]." -> "[^1].": the removed marker took the separator before it
                text, self._sep_spare = self._sep_spare + text, ""
            else:
                text = self._held[sep_at:] + text
            self._held = self._held[:sep_at]
            self._sep_at = -1
        held = self._held
        last = held[-1:] or (self._pieces[-1][-1:] if self._pieces else "")
        prefix = self._prefix_at >= 0 and self._open_at < 0
        line_start = last in ("", "\n") or prefix
        if sep_at < 0 and not line_start and _SEPARATED.fullmatch(text):
            # "[9], " may be followed by a citation, which then comes without the comma
            self._sep_at, self._sep_before = len(held), False
            self._held += text
            return ""
        if line_start:
            text, self._after_gap = self._after_gap + text, ""
            rest = text.lstrip(" \t")
            if not rest or rest == "\r":
                # the line's end decides (a "\r" may be the first half of a "\r\n")
                self._after_gap = text if prefix else rest
                return ""
            if rest[0] == "\n" or rest.startswith("\r\n"):
                self._gap = False
                size = 1 if rest[0] == "\n" else 2
                indent = self._gap_lead
                if prefix:
                    line = held[self._prefix_at :]
                    indent = line[: len(line) - len(line.lstrip(" \t"))]
                    self._held = held[: self._prefix_at]
                    self._prefix_at = -1
                    if self._heading and self._pieces and self._held.count("\n") < 2:
                        self._held += rest[:size]  # the heading ended the paragraph before it
                after = rest[size:]
                if not after:
                    self._indent = indent
                return reindent(after, indent) if after else ""
            if rest[0] in "`~-*+|#>" or rest[0].isdecimal():
                # a fence, a table row that lost its first cell, a heading, a quote, or a list
                # item the scanner did not read as one (after a blank line, its indented
                # continuation would be code in one reading and text in the other)
                rest, text = "\u200b" + rest, "\u200b" + text
            if prefix:
                self._gap = False
                return text  # content follows: the item stays as written
            text = rest
        elif last in "`~$<[【\ue200\\" or (
            text[0] not in "\r\n" and ends_inside_marker(self._last_line(MAX_TAG))
        ):
            # an opener still unclosed before the gap ("[^" then "1]", "<cita" then "tion>"):
            # joined, the two halves would spell a marker no one resolved
            text = "\u200b" + text
        self._gap = False
        return text

    def _close_group(self, text: str) -> str:
        """After removed markers in a held group: what of ``text`` is left to write.

        Separators and spaces wait with the opener; its closer removes the group; other text
        keeps the opener but not the removed markers' separators (``([9], p. 3)`` → ``(p. 3)``).
        """
        seps = _SEPARATORS.match(text).end()  # type: ignore[union-attr]
        at = self._open_at
        if seps == len(text):
            if len(self._held) - at + seps <= _MAX_GROUP:
                self._held += text
                return ""
            # too long for a group of markers: written as it came (an opener and separators
            # between the gap's two sides: nothing there can join into a marker)
            self._open_at = self._prefix_at = -1
            self._gap = False
            return text
        self._open_at = -1
        if text[seps] == OPENERS[self._held[at]]:
            self._held = self._held[:at].rstrip(" \t")
            return text[seps + 1 :]
        self._held = self._held[: at + 1]
        self._prefix_at = -1  # the line has content: the opener
        return text[seps:]

    def _release_held(self) -> None:
        """At the end: what is held and not only spaces is written (an empty line goes)."""
        held = self._held
        if self._gap and self._prefix_at >= 0 and self._open_at < 0:
            held = held[: self._prefix_at]
        elif self._gap and self._sep_at >= 0 and self._sep_before:
            held = held[: self._sep_at]
        body = held.rstrip(" \t\r\n")
        if body:
            self._pieces.append(body)
        self._held = self._sep_spare = ""
        self._open_at = self._prefix_at = self._sep_at = -1

    def _write_citations(self, lead: str, numbers: Iterable[int]) -> None:
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
            return
        if self._sep_at >= 0:
            if not self._sep_before:
                self._held = self._held[: self._sep_at]  # "[9], [1]" -> "[^1]"
            self._sep_at = -1  # "[1], [9], [2]": the first comma stays
            self._sep_spare = ""
        opened = self._gap and self._open_at >= 0
        if opened:
            # "([9], [1])": the citation follows the opener, without the removed separators
            self._held = self._held[: self._open_at + 1]
        if adjacent or opened:
            lead = ""
        elif not lead and self._gap:
            lead = self._gap_lead  # "fact [9][1]": the citation keeps the space before the run
        if (
            not lead
            and not self._held
            and self._pieces
            and (self._pieces[-1][-1] == "[" or self._trailing_backslashes() % 2)
        ):
            # "[" before "[^n]" would double its bracket ("[[[1]]]" must not become the one
            # marker "[[^1]]"), and an odd backslash would escape it
            lead = "\u200b"
        if len(shown) == 1:
            self._text(lead + _footnote(shown[0]))
        else:
            self._text(lead + "".join(_footnote(n) for n in shown))
        # the run goes on until text other than spaces: each source appears once in it
        self._adjacent = adjacent + tuple(shown)


def _space_start(text: str, end: int) -> int:
    """Where the run of spaces and line breaks that ends at ``end`` begins."""
    while end > 0 and text[end - 1] in " \t\r\n":
        end -= 1
    return end


@functools.lru_cache(maxsize=512)
def _footnote(n: int) -> str:
    return f"[^{n}]"
