"""How the resolver writes the answer text around the markers it keeps and removes.

:class:`ResolvedText` is the base of :class:`bot.resolver.StreamResolver`: the resolver reads
markers and decides citations; this writes the text pieces and the ``[^n]`` footnotes, and makes
sure a removed marker leaves nothing behind that it alone held up. What may still depend on
what follows is *held* (``_held``) rather than written: trailing spaces (a marker may follow
and take them), an opener ``(`` with any lead-in words after it (its group may hold only
removed markers: ``Fact ([9]).`` and ``Fact (see [9]).`` become ``Fact.``), lead-in words that
open a sentence (``Fact. See also [9].`` becomes ``Fact.``: the first word stands for the
opener, the sentence's end for the closer), a bare line prefix
(``- [9]`` leaves no empty list item; a line's number waits for its ``.``), and separators
next to a citation (``[1], [9].`` becomes ``[^1].``). After a removed marker (the *gap*),
:meth:`ResolvedText._unglue` decides what the following text keeps, so the removal can neither
leave an empty construct nor glue characters into new markdown syntax; an ordered list that lost
an item has its later items numbered down (``_renumber``).
Parenthesised groups are decided by :class:`bot.marker_groups.GroupedText`, separators by
:class:`bot.marker_separators.SeparatedText`, what a removal leaves at a line start by
:class:`bot.resolver_gaps.GapLines`, and the footnotes of a run of citations are written by
:class:`bot.resolver_citations.CitationText` (its bases).

A base class rather than a collaborator on purpose: these methods run once per scanned token on
the resolver's hot path (``bench/resolve.py``), where another attribute hop costs measurably.
"""

from __future__ import annotations

import re
from typing import Final

from bot.list_numbers import Renumbering, renumber
from bot.marker_groups import SOFT_BREAK, only_separators
from bot.marker_lead_ins import (
    LEAD_LAST,
    ends_in_lead_in,
    lead_opener,
    sentence_lead,
)
from bot.marker_lines import (
    OPENERS,
    PREFIX_LAST,
    SEPARATOR_CHARS,
    bare_prefix,
    ends_inside_marker,
    reindent,
    reindent_waits,
    separating,
    space_start,
    still_separating,
)
from bot.marker_parse_tags import MAX_TAG
from bot.resolver_citations import CitationText

# a line holding only citations after any block quote and list markers ("> 1. [^1]"): a colon
# after it would make it a reference definition (bot.markdown's container prefix, _LINE_START)
_ONLY_CITATIONS = re.compile(r"[ \t>]*(?:(?:[-+*]|\d{1,9}[.)])[ \t>]*)*(?:\[\^\d+\])+")
_ENDS_IN_FOOTNOTE = re.compile(r"\[\^\d+\]\Z")
_FOOTNOTE_TAIL: Final = 16  # longer than any "[^n]" the resolver writes
# a token ending in one of these may open a group or a line prefix the resolver holds back
# (a digit: a nested item's number, "    1", before its ".")
_HOLD_LAST: Final = frozenset(" \t\r\n0123456789") | frozenset(OPENERS) | PREFIX_LAST
_WRITTEN_END: Final = 64  # more than a line prefix takes (see _hold)
SLOW_LAST: Final = _HOLD_LAST | frozenset(",;")
"""Last characters of a text piece that must go through :meth:`ResolvedText._text` (they may
be held): a piece ending otherwise can take the resolver's fast path."""


class ResolvedText(CitationText):
    """The answer text as it is written: ``_pieces`` (final) and ``_held`` (still undecided)."""

    def __init__(self) -> None:
        self._pieces: list[str] = []
        # the end of the last line of _pieces[:n], and n (see _last_line); one attribute: a
        # StreamResolver has 29, and a 30th cost the 1-char stream ~10% in bench/resolve.py
        # (CPython 3.11's shared-key instance dicts)
        self._tail: tuple[str, int] = ("", 0)
        self._held = ""
        self._adjacent: tuple[int, ...] = ()
        self._gap = False
        self._gap_lead = ""  # the spaces before the first removed marker of the gap
        self._after_gap = ""  # spaces and a "\r" held while a removed marker's line is decided
        # what of _held is not only spaces: an opener "(" (at that index of _held) that may
        # hold only removed markers, and a bare line prefix ("- ", "## ") that may stay empty
        self._open_at = -1
        self._open_words = 0  # the length of lead-in words after that opener: "(see [9])"
        self._prefix_at = -1
        self._heading = False
        # separators held at that index of _held: a removed marker next to them takes them
        # ("[1], [9]." and "[9], [1]." both lose the comma); _sep_before: they came first
        self._sep_at = -1
        self._sep_before = False
        self._sep_spare = ""  # separators after the gap while those before it are held
        self._indent: str | None = None  # the indentation for the line after a removed line
        self._indent_spaces = ""  # that line's own indentation so far, while only spaces came
        self._renumber: Renumbering | None = None  # an ordered list that lost an item
        # len(_pieces), len(_held) after the last removed line, and whether it (or one removed
        # right before it) began a block quote: a setext underline may follow (resolver.py)
        self._removed_at: tuple[int, int, bool] = (-1, 0, False)

    def _text(self, text: str) -> None:
        if self._indent is not None and text:
            text, self._indent_spaces = self._indent_spaces + text, ""
            if not text.strip(" \t") or (not self._gap and reindent_waits(text, self._indent)):
                self._indent_spaces = text  # the indentation may come in pieces: judged whole
                return
            text, self._indent = reindent(text, self._indent, not self._gap), None
        if self._gap and text:
            text = self._unglue(text)
        if not text:
            return
        if text[0] == ":" and self._adjacent and _ONLY_CITATIONS.fullmatch(self._last_line()):
            text = "\\" + text  # "[^1]: …" at a line start would read as a definition
        elif text[0] == "^" and self._adjacent and not self._held:
            text = "\u200b" + text  # "[1]^^": "[^1]^" would read as one footnote, caret and all
        if self._sep_at >= 0:
            if still_separating(self._held[self._sep_at :], text):
                self._held += text
                return
            self._sep_at = -1  # text follows: the separators are written with it
        elif self._adjacent and text[-1] in SEPARATOR_CHARS and separating(text):
            # "[1], " may be followed by a marker that is removed: the comma waits for it
            self._adjacent = ()
            self._sep_at, self._sep_before = len(self._held), True
            self._held += text
            return
        self._adjacent = ()
        body = text.rstrip(" \t\r\n")
        if not body:
            if ("\n" in text or "\r" in text) and not self._group_goes_on(text):
                # the line ended: an opener, lead-in or line prefix before it was the writer's
                # own, and what is held up to its end is written now, as a whole-text read
                # writes it with its line (a source list after it must see it written)
                self._open_at = self._prefix_at = -1
                done = self._held.rstrip(" \t\r\n")
                if done:
                    self._pieces.append(self._renumbered(done) if self._renumber else done)
                    self._held = self._held[len(done) :]
            self._held += text
            return
        combined = self._held + body if self._held else body
        last = body[-1]
        if (last in _HOLD_LAST or (last in LEAD_LAST and ends_in_lead_in(combined))) and (
            len(text) == len(body)
            or ("\n" not in (trail := text[len(body) :]) and "\r" not in trail)
            or SOFT_BREAK.fullmatch(trail)
        ):
            cut = self._hold(combined)
            if len(text) != len(body) and ("\n" in trail or "\r" in trail):
                cut = self._hold_across(combined, cut)
            if cut:
                done = combined[:cut]
                self._pieces.append(self._renumbered(done) if self._renumber else done)
            self._held = combined[cut:] + text[len(body) :]
            return
        self._open_at = self._prefix_at = self._sep_at = -1
        self._pieces.append(self._renumbered(combined) if self._renumber else combined)
        self._held = text[len(body) :]

    def _hold_across(self, combined: str, cut: int) -> int:
        """``_hold`` when a line break follows: only an opener's group goes on after it."""
        held, self._held = self._held, combined
        code = self._open_at >= 0 and self._code_line(cut + self._open_at)
        self._held = held
        if self._open_at < 0 or self._prefix_at >= 0 or code:
            self._open_at = self._prefix_at = -1  # the line ended: "(" was the writer's own
            return len(combined)
        return cut

    def _hold(self, text: str) -> int:
        """Where the tail of ``text`` that must wait for what follows begins.

        An opener "(" waits, with the spaces before it and lead-in words after it ("see",
        "cf.", "source:"; ``lead_opener``), until it is known whether the group holds only
        removed markers (``Fact ([9]).`` and ``Fact (see [9]).`` become ``Fact.``), as do
        lead-in words that open a sentence (``sentence_lead``; ``Fact. See [9].``); a line
        that is only a list item's marker, a heading's hashes or blockquote arrows (or a number
        a "." may make an item's) waits until content follows (``- [9]`` leaves no empty item).
        """
        self._open_at = self._prefix_at = self._sep_at = -1
        cut = len(text)
        last = text[-1]
        if last in OPENERS:
            opener = len(text) - 1
        elif last in LEAD_LAST:
            opener = lead_opener(text)
            if opener < 0 and sentence_lead(text, None) >= 0:
                # "Fact. See also [9]." -> "Fact.": the sentence's first word stands for the
                # opener (at _open_at), and its end for the closer (see _close_group); what
                # was written before tells whether the words open a sentence (seldom asked)
                opener = sentence_lead(text, self._written_end())
        else:
            opener = -1
        if opener >= 0:
            self._open_words = len(text) - 1 - opener
            cut = space_start(text, opener)
        line = text.rfind("\n", 0, cut) + 1
        if (
            0 < cut - line <= 32
            and (line or not self._pieces)
            and (text[cut - 1] in PREFIX_LAST or text[cut - 1].isdecimal())
            and not text[cut:opener].strip(" \t")  # an opener after a line break starts its line
        ):
            kind = bare_prefix(text, line, cut)
            if kind == "number":
                if opener < 0:
                    # not yet a prefix: held, as a "." may follow; a marker after it is content
                    cut = space_start(text, line)
            elif kind is not None:
                self._heading = kind == "heading"
                cut = space_start(text, line)
                self._prefix_at = line - cut
        if opener >= 0:
            self._open_at = opener - cut
        return cut

    def _written_end(self) -> str:
        """The end of the text written so far, led by a line break when it is all of it: what
        tells whether words written next open a sentence (``sentence_lead``)."""
        end = ""
        for piece in reversed(self._pieces):
            end = piece + end
            if len(end) >= _WRITTEN_END:
                return end[-_WRITTEN_END:]
        return "\n" + end

    def _last_line(self, limit: int | None = None) -> str:
        """The output's last line; with ``limit``, at least its last ``limit`` characters."""
        if limit is not None:
            # asked at each removed marker: the pieces written since the last time are folded
            # into a bounded tail, so many short pieces are not walked again each time
            end, done = self._tail
            new = self._pieces[done:]
            if new:
                joined = "".join(new)
                cut = joined.rfind("\n")
                line = joined[cut + 1 :] if cut >= 0 else end + joined
                end = line[-limit:] if len(line) > 2 * limit else line
                self._tail = (end, len(self._pieces))
            return end + self._held
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
            pending = self._sep_spare if self._sep_before else self._held[sep_at:]
            if still_separating(pending, text):
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
        if sep_at < 0 and not line_start and separating(text):
            # "[9], " may be followed by a citation, which then comes without the comma
            self._sep_at, self._sep_before = len(held), False
            self._held += text
            return ""
        if line_start:
            return self._line_after_gap(text, held, prefix, sep_at)
        elif (
            last in "`~$<[【\ue200\\"
            or (text[0] not in "\r\n" and ends_inside_marker(self._last_line(MAX_TAG)))
            or (
                text[0] in "^("
                and last == "]"
                and bool(_ENDS_IN_FOOTNOTE.search((held or self._pieces[-1])[-_FOOTNOTE_TAIL:]))
                == (text[0] == "^")
            )
        ):
            # (a caret after a citation, "[1], [9]^": "[^1]^" would read as one footnote; the
            # writer's brackets before parentheses, "[x] [[9]](url "t")": "[x](url "t")" would
            # be a link no one wrote)
            # an opener still unclosed before the gap ("[^" then "1]", "<cita" then "tion>"):
            # joined, the two halves would spell a marker no one resolved
            text = "\u200b" + text
        elif text[0].isalnum() and (
            (self._gap_lead and last not in " \t") or (last.isalnum() and text[0].isdecimal())
        ):
            # "a [9]b" and "pip[REF]3": the words on either side of the removal stay apart
            text = " " + text
        self._gap = False
        return text

    def _renumbered(self, text: str) -> str:
        """``text`` with the later items of a list that lost one numbered down (``renumber``)."""
        state = self._renumber
        assert state is not None
        at_line_start = not self._pieces or self._pieces[-1][-1:] == "\n"
        text, self._renumber = renumber(text, at_line_start, state)
        return text

    def _release_held(self) -> None:
        """At the end: what is held and not only spaces is written (an empty line goes)."""
        held = self._held
        if (
            self._gap
            and self._sentence_opened()
            and only_separators(held[self._open_at + 1 + self._open_words :])
        ):
            held = held[: self._open_at]  # "Fact. See also [9]" at the end reads "Fact."
            if self._prefix_at >= 0:
                held = held[: self._prefix_at]  # "- See [9]": no empty item is left
        elif self._gap and self._sep_at >= 0 and not self._sep_before:
            held = self._separators_at_end()  # "[9] and" reads "and"
        elif self._gap and self._prefix_at >= 0 and self._open_at < 0:
            held = held[: self._prefix_at]
        elif self._gap and self._sep_at >= 0 and self._sep_before:
            held = held[: self._sep_at]
        body = held.rstrip(" \t\r\n")
        if body:
            self._pieces.append(self._renumbered(body) if self._renumber else body)
        self._held = self._sep_spare = ""
        self._open_at = self._prefix_at = self._sep_at = -1
