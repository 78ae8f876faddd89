"""Where a Discourse post may be cut: at a line or a sentence end, after its footnote references.

Used by :class:`renderers.discourse_fit.PostFitter` to cut a block that no post holds whole.
"""

from __future__ import annotations

import re

from renderers.limits import first_piece

# A footnote reference as the renderer writes it, or the plain "\[n\]" the connector writes
# for one it cannot define in the post (discourse_spill): a sentence ends after its references.
_REFERENCE = r"(?:\[\^\d+\]|\\\[\d+\??\\\])"
# where a sentence ends as renderers.limits cuts at one: a line break, or a stop followed by its
# references and a space (a full-width stop needs no space)
_BREAK = re.compile(
    r"\n|[.!?](?:[ \t\u00a0]?" + _REFERENCE + r")*\s|[。！？](?:" + _REFERENCE + ")*"
)
# what may follow a sentence's last word: its references and punctuation
ONLY_REFERENCES = re.compile(r"(?:" + _REFERENCE + r"|[\s.,;:!?。！？])*")
_ENDS_SENTENCE = re.compile(r"[.!?。！？](?:[ \t\u00a0]?" + _REFERENCE + r")*$")


def at_break(text: str, piece: str) -> bool:
    """Whether ``piece``, the first piece cut from ``text``, ends at a line or a sentence end.

    A piece that is not a prefix of ``text`` had a code fence closed (or empty quote lines
    dropped) where it was cut: that is a cut at a line.
    """
    if not text.startswith(piece):
        return True
    after = text[len(piece) :]
    gap = after[: len(after) - len(after.lstrip())]
    return "\n" in gap or not after.strip() or bool(_ENDS_SENTENCE.search(piece))


def breaks(text: str, size: int) -> list[int]:
    """Where ``text`` may be cut at a line or sentence end within its first ``size``
    characters."""
    return [m.end() for m in _BREAK.finditer(text, 0, size + 1) if 0 < m.end() <= size]


def first_sentence(text: str, limit: int) -> str:
    """``text`` up to its first line or sentence end that a cut may fall at (all of it when
    there is none); at most ``limit`` + 1 characters."""
    for end in breaks(text, min(len(text), limit + 1)):
        piece = first_piece(text, end)
        if piece and at_break(text, piece) and text.startswith(piece):
            return piece
    return text if len(text) <= limit else text[: limit + 1]
