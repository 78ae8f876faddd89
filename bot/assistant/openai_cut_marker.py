"""A citation marker the model's length limit cut in half is left out of the answer.

A step that ends with ``finish_reason: "length"`` (or its content filter) stops wherever the
token limit falls, and that can be inside a marker: ``<citation>3 | Every reply``,
``[[source key="ab``, ``[2, ``. Passed on, the resolver cannot read it as a marker once the
cut note follows it, and the reader sees it raw (on the web, ``&lt;citation&gt;3 | …``). So
the text from where a marker may have begun is held back until more text shows what it is
(the resolver holds it back too, so nothing is shown later than before), and at a cut it is
left out, as a code block the cut left open is closed (:func:`openai_cut_notes.cut_note`).

What may begin a marker is decided by the resolver's own scanner (:class:`MarkerScanner`),
reading the held text alone: text it can already settle (``(an aside``, a ``[`` with a line
break after it) is passed on at once; ``[see the docs`` is held while it may still be a link's
text, and left out at a cut like any other marker start.

A marker a step's tool calls interrupted (``here [1``, then after the tools ``4]. …``) is
carried into the next step's text instead of shown on its own line
(:meth:`CutMarkerHold.end_before_tools`).
"""

from __future__ import annotations

import re

from bot.marker_emphasis import MARKER_START
from bot.marker_parse import Grammar
from bot.markers import MarkerScanner

LONGEST_HELD = 600
"""Characters held at most: longer, it is no marker the cut could matter to (the resolver
decides what it is), and scanning it again with every piece would cost more."""

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})", re.MULTILINE)


class CutMarkerHold:
    """Holds back the end of one step's text while it may be the start of a marker (and
    trailing spaces, which a marker may follow: at a cut they go with it)."""

    def __init__(self, key_word: str, carried: str = "") -> None:
        # a model told to cite: every form is a marker whatever it names (as the resolver reads)
        self._grammar = Grammar(model_cites=True, key_word=key_word)
        self._shown: list[str] = []
        self._held = carried  # a marker the step before began (:meth:`end_before_tools`)

    def feed(self, text: str) -> str:
        """What of ``text`` (after what was held) can be passed on now."""
        combined = self._held + text
        start = self._marker_start(combined)
        self._held = combined[start:]
        return self._show(combined[:start])

    def end(self, cut: bool) -> str:
        """At the step's end: what was held, unless the step was ``cut`` and it is an unfinished
        marker outside a code block (code is shown as written, cut or not)."""
        held, self._held = self._held, ""
        if cut and held and len(_FENCE.findall("".join(self._shown))) % 2 == 0:
            return ""
        return self._show(held)

    def end_before_tools(self) -> tuple[str, str]:
        """At the end of a step that called tools: what to show now, and what to carry into
        the next step's text (``CutMarkerHold(key_word, carried)``).

        A marker the model began before its calls (``here [1``) may go on after them
        (``4]. …``): carried, it is read whole, where shown now it read ``here [1`` and, after
        the blank line that keeps a preamble apart, ``4]``. Spaces held alone, and in a code
        block what was held (code), are shown now.
        """
        held, self._held = self._held, ""
        if not held.strip() or len(_FENCE.findall("".join(self._shown))) % 2:
            return self._show(held), ""
        return "", held

    def _marker_start(self, text: str) -> int:
        """Where the marker ``text`` may end in begins, with the spaces before it (left out
        with it, as the resolver removes a dropped marker); where it ends in none, where its
        trailing spaces begin (a marker may follow them)."""
        for at, char in enumerate(text):
            if char in MARKER_START and len(text) - at <= LONGEST_HELD and self._pending(text[at:]):
                return len(text[:at].rstrip(" \t"))
        return len(text.rstrip(" \t"))

    def _pending(self, text: str) -> bool:
        # nothing settled: all of it may still be one marker
        return not MarkerScanner(self._grammar).feed(text)

    def _show(self, text: str) -> str:
        if text:
            self._shown.append(text)
        return text
