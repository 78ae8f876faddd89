"""Holding back streamed text that may turn out to be tool calls written as text.

Whether text is a call is known only at the step's end (calls count only when they end the
text), so from the point where a call could begin, text is held until then
(:class:`CallHold`); text before that point passes at once. A call can begin:

- at a line's start, with ``<tool_call>`` or ``<tool_response>``
  (:mod:`bot.assistant.openai_text_calls`), ``<function=`` or ``<|python_tag|>``
  (:mod:`bot.assistant.openai_written_calls`);
- anywhere, with Mistral's ``[TOOL_CALLS]`` (a model writes it straight after its text);
- at the start of the step's text, with ``{`` or ``[{`` (a whole message that is a call in
  JSON, as Llama 3.x writes it).

A line (or the step's start, or the end of what arrived) is held only while it may still grow
into one of these; a mention of a tag inside a sentence holds nothing, and what is held and
turns out not to be a call is shown at the step's end, as written.
"""

from __future__ import annotations

import re

LINE_TAGS = ("<tool_call>", "<tool_response>", "<function=", "<|python_tag|>")
ANYWHERE_TAG = "[TOOL_CALLS]"
_JSON_START = re.compile(r"\{|\[\s*\{")
_MAYBE_JSON_START = re.compile(r"\[\s*\Z")


class CallHold:
    """Holds back a step's text from the first point where a call written as text may begin to
    the step's end, however the text is chunked."""

    def __init__(self) -> None:
        self._held = ""  # what may still begin a call, or everything after one did
        self._holding = False
        self._line_start = True  # what was passed on ends at a line's start
        self._started = False  # something other than whitespace was passed on

    def feed(self, text: str) -> str:
        """The part of ``text`` (with what was held back) that is passed on now."""
        if self._holding:
            self._held += text
            return ""
        text, self._held = self._held + text, ""
        found = self._hold_point(text)
        if found is None:
            return self._passed(text)
        point, certain = found
        self._holding, self._held = certain, text[point:]
        return self._passed(text[:point])

    def end(self) -> str:
        """At the step's end: everything held back."""
        rest, self._held, self._holding = self._held, "", False
        return rest

    def _hold_point(self, text: str) -> tuple[int, bool] | None:
        """Where holding starts in ``text``, and whether a call surely begins there (else the
        text there is only a prefix of one, and more is awaited)."""
        points: list[tuple[int, bool]] = []
        if not self._started:
            begun = text.lstrip()
            if _JSON_START.match(begun):
                points.append((0, True))
            elif begun and _MAYBE_JSON_START.match(begun):
                points.append((0, False))
        start: int | None = 0 if self._line_start else _next_line(text, 0)
        while start is not None:
            rest = text[start:].lstrip(" \t")
            if rest.startswith(LINE_TAGS):
                points.append((start, True))
                break
            if "\n" not in rest and any(tag.startswith(rest) for tag in LINE_TAGS):
                points.append((start, False))  # "  <tool_c": wait for more
                break
            start = _next_line(text, start)
        anywhere = text.find(ANYWHERE_TAG)
        if anywhere >= 0:
            points.append((anywhere, True))
        else:
            for size in range(len(ANYWHERE_TAG) - 1, 0, -1):
                if text.endswith(ANYWHERE_TAG[:size]):
                    points.append((len(text) - size, False))  # "… [TOOL_": wait for more
                    break
        # the earliest point; where a sure one and a possible one meet, the sure one
        return min(points, key=lambda p: (p[0], not p[1])) if points else None

    def _passed(self, text: str) -> str:
        if text:
            self._line_start = text.endswith("\n")
            self._started = self._started or bool(text.strip())
        return text


def _next_line(text: str, position: int) -> int | None:
    newline = text.find("\n", position)
    return None if newline < 0 else newline + 1
