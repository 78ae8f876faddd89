"""What a removed marker leaves at a line start (a base of resolver_text.ResolvedText).

:meth:`GapLines._line_after_gap` takes the text that follows a gap (removed markers) when the
gap stands at a line start, or right after a bare line prefix (``- ``, ``## ``, ``> ``): a line
that held only removed markers goes with its line break (and its prefix), the next line's
indentation is judged whole (it may now read as code), and a character that would open markdown
syntax at the new line start is escaped or kept apart with a zero-width space;
:meth:`GapLines._underline_after_gap` decides a setext underline under removed lines. Split out of
``resolver_text`` for size; a base class, as its others are, for the hot path's sake.
"""

from __future__ import annotations

from bot.list_numbers import Renumbering, follows_list_item, removed_item
from bot.marker_blocks import underlines_nothing
from bot.marker_lines import last_line_nests, reindent, reindent_waits, separating
from bot.marker_separators import SeparatedText, line_start_after_gap

__all__ = ["GapLines"]

_LOOK_BACK = 1024  # how far back the line before a removed heading is looked for


def _list_before(pieces: list[str], held: str) -> bool:
    """Whether the last non-blank line of the output so far (``pieces`` then ``held``) is a
    list item's or is indented: the line after a removed heading would then join that list,
    blank lines between or not, so the heading's hashes stay to end it."""
    text = held
    for piece in reversed(pieces):
        if len(text) >= _LOOK_BACK:
            break
        text = piece + text
    return last_line_nests(text[-_LOOK_BACK:].rstrip(" \t\r\n") + "\n")


class GapLines(SeparatedText):
    """What a removal leaves at a line start (:meth:`ResolvedText._unglue` hands it the text
    after a gap there): the line that held only removed markers goes with its line break, its
    list item or quote prefix and a heading's hashes; the next line's indentation is judged; a
    character that would now open markdown syntax is escaped or kept apart."""

    _after_gap: str
    _gap: bool
    _gap_lead: str
    _held: str
    _pieces: list[str]
    _prefix_at: int
    _sep_at: int
    _sep_before: bool
    _renumber: Renumbering | None
    _heading: bool
    _open_at: int
    _removed_at: tuple[int, int, bool]
    _indent: str | None
    _indent_spaces: str

    def _text(self, text: str) -> None:
        raise NotImplementedError  # ResolvedText's

    def _line_after_gap(self, text: str, held: str, prefix: bool, sep_at: int) -> str:
        text, self._after_gap = self._after_gap + text, ""
        if sep_at < 0 and separating(text):
            # "[9] and [1]" at a line start: as within a line, the separators wait for
            # what follows, and go with the removed marker if a marker follows them
            self._sep_at, self._sep_before = len(held), False
            self._held += text
            return ""
        text = line_start_after_gap(text, prefix)
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
                self._renumber = removed_item(line, self._renumber)
                if self._heading and self._pieces and self._held.count("\n") < 2:
                    self._held += rest[:size]  # the heading ended the paragraph before it
            after = rest[size:]
            now = (len(self._pieces), len(self._held))
            quoted = prefix and line.lstrip(" \t")[:1] == ">"  # (it began a quote's paragraph)
            quoted = quoted or (self._removed_at[:2] == now and self._removed_at[2])
            self._removed_at = (*now, quoted)
            if prefix and self._heading:
                if not _list_before(self._pieces, self._held):
                    # nothing before for the next line to join: an indented line stays the
                    # code it was, and the heading goes whole (no "##" the writer never wrote)
                    return after
                # its line, kept if code follows: after a list a blank line would not end
                # it, and the code would become the item's text (see reindent)
                indent = line.rstrip(" \t") + rest[:size]
            elif (self._heading and self._open_at >= 0) or follows_list_item(
                self._pieces, self._held
            ):
                # nested in an item, or code after a heading: as it was read (_heading alone
                # may be left from an earlier heading line, whatever the split)
                return after
            if reindent_waits(after, indent):  # the next line's indentation: judged whole
                self._indent, self._indent_spaces = indent, after
                return ""
            return reindent(after, indent)
        if rest[0] in "-+#>":
            # a heading, a quote, or a list item the scanner did not read as one (after a
            # blank line, its indented continuation would be code in one reading and text in
            # the other): escaped, as these characters mean nothing inside a line, so the
            # text reads as written and nothing invisible is added
            text = text[: len(text) - len(rest)] + "\\" + rest
            rest = "\\" + rest
        elif rest[0] in "`~*|" or rest[0].isdecimal():
            # a fence, a table row that lost its first cell, a "*" or a number: escaped they
            # would lose their meaning inside the line (code span, strikethrough, emphasis,
            # the row's cells), so a zero-width space keeps the two sides apart; after the
            # spaces, which a list item's marker or quote arrows need ("- [9] `x`")
            text = text[: len(text) - len(rest)] + "\u200b" + rest
            rest = "\u200b" + rest
        if prefix:
            self._gap = False
            return text  # content follows: the item stays as written
        self._gap = False
        return rest

    def _underline_after_gap(self, line: str) -> None:
        """A setext underline, written as is unless every line it underlined was removed
        (``[9]`` / ``===``): then ``===`` would show as text and ``---`` as a rule, and the code
        that the heading ended would join that text, its raw ``[1]`` shown. It becomes an empty
        heading (``#``; ``##`` for ``---``), kept only when code follows, blank lines between
        or not (``reindent``), or when a list came right before (the heading ended it).
        (:class:`bot.resolver.StreamResolver` hands it the underline.)"""
        pieces, held, quoted = self._removed_at
        self._removed_at = (-1, 0, False)
        if (
            pieces != len(self._pieces)
            or self._held[held:].strip()
            or not underlines_nothing(self._pieces, self._held, quoted)
        ):
            self._text(line)
            return
        body = line.rstrip("\r\n")
        heading = ("#" if body.lstrip(" \t")[0] == "=" else "##") + (line[len(body) :] or "\n")
        if follows_list_item(self._pieces, self._held):
            # the removed lines ended a list (a quote's, "- a" / "> [9]" / "==="): the heading
            # ends it still, whatever follows
            self._indent, self._indent_spaces = None, ""
            self._text(heading)
        else:
            self._indent, self._indent_spaces = heading, ""
