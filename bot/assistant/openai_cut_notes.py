"""The note that ends an answer the endpoint stopped early, by ``finish_reason``.

Without it the reader sees half an answer (half a list of steps, a command cut mid-line) that
looks whole. The notes are citecast's own words, English whatever ``assistant.language`` says
(:mod:`bot.own_notes`, where they are kept for the renderers to mark).

Split out of :mod:`bot.assistant.openai_backend` for size.
"""

from __future__ import annotations

import re

from bot.own_notes import CUT_NOTES

__all__ = ["CUT_NOTES", "cut_note"]

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})", re.MULTILINE)


def cut_note(text: str, note: str) -> str:
    """The note after an answer that was cut, outside a code block the cut left open."""
    fences = _FENCE.findall(text)
    closing = f"\n{fences[-1]}" if len(fences) % 2 else ""
    return f"{closing}\n\n{note}"
