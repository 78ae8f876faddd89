"""How the resolver writes a parenthesised group whose markers it removes.

``Fact ([9]).`` and ``Fact (see [9]).`` become ``Fact.``: :class:`GroupedText` decides, after
the removed markers, whether the group goes whole with its brackets (only separators and spaces
up to its closer) or stays for the text it still holds. A group may go on across one line break
(a soft break, a space to markdown), never across a blank line or from a code line. A sentence
that lead-in words open is such a group too (``Fact. See also [9].`` becomes ``Fact.``), which
its end closes (``_close_sentence``). A base of
:class:`bot.resolver_text.ResolvedText` (which owns the state) for the same reason that class
is one: these run on the resolver's hot path.
"""

from __future__ import annotations

import re
from typing import Final

from bot.marker_lead_ins import SENTENCE_ENDS
from bot.marker_lines import OPENERS, SEPARATED, SEPARATOR_RUN, SEPARATORS, separating

_MAX_GROUP = 64  # what an opener holds back after removed markers: separators and spaces
SOFT_BREAK: Final = re.compile(r"[ \t]*(?:\r\n|\r|\n)?[ \t]*")
"""What may follow an opener (and its lead-in words) while its group goes on: one line break."""
_BREAK = re.compile(r"\r\n|\r|\n")
_SEPS = r"(?:[ \t,;&]|(?:and|or)(?![A-Za-z]))*"
_GROUP_RUN = re.compile(rf"{_SEPS}(?:(?:\r\n|\r|\n){_SEPS})?")  # SEPARATOR_RUN, one break in it


def only_separators(text: str) -> bool:
    """Whether ``text`` held in a group is whole separators (one line break reads as a space)."""
    flat = _BREAK.sub(" ", text, count=1)
    return SEPARATORS.fullmatch(flat) is not None or SEPARATED.fullmatch(flat) is not None


class GroupedText:
    """The group half of :class:`bot.resolver_text.ResolvedText` (see its attributes)."""

    _held: str
    _open_at: int
    _open_words: int
    _prefix_at: int
    _gap: bool
    _gap_lead: str

    def _last_line(self, limit: int | None = None) -> str:
        raise NotImplementedError  # ResolvedText's

    def _group_goes_on(self, text: str) -> bool:
        """Whether a held opener's group goes on with ``text`` (spaces and line breaks) after it.

        One line break is a soft break, a space to markdown: ``Fact (see`` / ``[9]).`` is read as
        ``Fact (see [9]).``. A blank line ends the paragraph, and a line prefix its line.
        """
        if self._open_at < 0 or self._prefix_at >= 0:
            return False
        pending = self._held[self._open_at + 1 + self._open_words :] + text
        return SOFT_BREAK.fullmatch(pending) is not None and not self._code_line(self._open_at)

    def _code_line(self, at: int) -> bool:
        """Whether the line of ``_held[at]`` is indented as code (a paragraph may follow it)."""
        line = self._last_line()
        line = line[: len(line) - len(self._held) + at]
        line = line[line.rfind("\n") + 1 :]
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        return len(indent.expandtabs(4)) >= 4

    def _close_group(self, text: str) -> str:
        """After removed markers in a held group: what of ``text`` is left to write.

        Separators and spaces wait with the opener; its closer removes the group; other text
        keeps the opener but not the removed markers' separators (``([9], p. 3)`` → ``(p. 3)``).
        """
        at = self._open_at
        words = self._open_words
        # the separators held since the markers ("and" too), read with the text as one piece
        full = self._held[at + 1 + words :] + text
        if self._held[at] not in OPENERS:
            return self._close_sentence(full, text)
        # a soft line break among the separators keeps the group ("(see" / "[9])" goes whole)
        run = _GROUP_RUN.match(full).end()  # type: ignore[union-attr]
        seps = SEPARATOR_RUN.match(full).end()  # type: ignore[union-attr]
        if run == len(full) or separating(_BREAK.sub(" ", full, count=1)):
            if len(self._held) - at + len(text) <= _MAX_GROUP:
                self._held += text
                return ""
            # too long for a group of markers: written as it came (an opener and separators
            # between the gap's two sides: nothing there can join into a marker)
            self._open_at = self._prefix_at = -1
            self._gap = False
            return text
        self._open_at = -1
        if full[run] == OPENERS[self._held[at]]:
            self._held = self._held[:at].rstrip(" \t")
            return full[run + 1 :]
        if full[seps] in "\r\n":
            # text on the next line: the line break stays, and the line starts with the text
            size = 2 if full.startswith("\r\n", seps) else 1
            self._held = self._held[: at + 1 + words] + full[seps : seps + size]
            self._prefix_at = -1
            return full[seps + size :]
        # the lead-in words stay, as written: "(see [9] d)" and "(see<CIT 9 /> d)" -> "(see d)"
        lead = self._gap_lead or (" " if any(c in " \t" for c in full[:seps]) else "")
        self._held = self._held[: at + 1 + words] + (lead if words else "")
        self._prefix_at = -1  # the line has content: the opener
        return full[seps:]

    def _close_sentence(self, full: str, text: str) -> str:
        """``_close_group`` for lead-in words that open a sentence (``Fact. See also [9].``),
        the first of them at ``_open_at``; ``full`` is what followed the removed markers.

        Its end (``.``, ``!``, ``?``, or the line's end, whose line break stays, unless an
        ``and`` or ``or`` before it joins the next line) removes the sentence with the spaces
        before it; other text keeps the words, and is then read as after any removed marker
        (``See [9], for details.`` -> ``See, for details.``).
        """
        at = self._open_at
        seps = SEPARATOR_RUN.match(full).end()  # type: ignore[union-attr]
        joined = full[:seps].strip(" \t") != "" and (
            _GROUP_RUN.match(full).end() == len(full)  # type: ignore[union-attr]
            or separating(_BREAK.sub(" ", full, count=1))
        )  # "Sources: [7]," / "[9].": after a separator, a line break may go on with markers
        if seps == len(full) or separating(full) or joined:
            if len(self._held) - at + len(text) <= _MAX_GROUP:
                self._held += text
                return ""
            self._open_at = self._prefix_at = -1  # too long for markers' separators: text
            self._gap = False
            return text
        self._open_at = -1
        end = full[seps]
        if end in SENTENCE_ENDS or (end in "\r\n" and full[:seps].strip(" \t,;&") == ""):
            self._held = self._held[:at].rstrip(" \t")
            return full[seps + 1 :] if end in SENTENCE_ENDS else full[seps:]
        self._held = self._held[: at + 1 + self._open_words]
        self._prefix_at = -1  # the line has content: the words
        return full
