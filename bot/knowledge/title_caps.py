"""How long a stored title or section name may be (:func:`bot.knowledge.readers.read_document`).

A Markdown heading of 30,000 words (or an HTML ``<title>`` of that size) was stored whole as
the document's title and as the section of every passage under it: 210 KB that every channel
then printed in its source list, and that FTS5 weighs four times (title) and twice (section)
for each passage, so that the length of that one title skewed the ranking of every question
(bm25 compares a field's length with the average over all rows: one huge title raised the
average for every document). Each title and each heading of a section path is cut at a word
to :data:`MAX_TITLE_CHARS`, ending in "…", and a section path of many headings keeps its
innermost ones within :data:`MAX_SECTION_CHARS`. Discord's embed titles stop at 256
characters; a real title or heading is far shorter than either limit. A cut keeps whole
characters as a reader sees them (:func:`bot.grapheme_cuts.grapheme_cut`): a flag, an emoji
sequence or a letter with its combining marks is kept whole or left out.
"""

from __future__ import annotations

from typing import Final

from bot.grapheme_cuts import ZWJ, grapheme_cut

MAX_TITLE_CHARS: Final = 200
"""The most characters of a document's title, or of one heading of a section path."""
MAX_SECTION_CHARS: Final = 400
"""The most characters of a whole section path (``A > B > C``)."""
ELLIPSIS: Final = "…"
SECTION_SEPARATOR: Final = " > "  # bot.knowledge.document.HeadingPath joins headings with it


def capped(text: str, limit: int = MAX_TITLE_CHARS) -> str:
    """``text`` when at most ``limit`` characters, else its start cut at the last space
    (mid-word only when the first half of the cut holds none) and ending in "…" (``limit``
    characters at most); mid-word, between two whole characters."""
    if len(text) <= limit:
        return text
    cut = text[: grapheme_cut(text, limit - len(ELLIPSIS))]
    space = cut.rfind(" ")
    if space > len(cut) // 2:
        cut = cut[:space]
    # a joiner left at the end (before the space or stop taken off) joins nothing
    return cut.rstrip(" ,;:.-–—>" + ZWJ) + ELLIPSIS


def capped_section(section: str) -> str:
    """``section`` with each heading :func:`capped`, and its outer headings left out (an
    "…" in their place) while the path is longer than :data:`MAX_SECTION_CHARS`."""
    if len(section) <= MAX_TITLE_CHARS:
        return section
    headings = [capped(heading) for heading in section.split(SECTION_SEPARATOR)]
    if len(SECTION_SEPARATOR.join(headings)) <= MAX_SECTION_CHARS:
        return SECTION_SEPARATOR.join(headings)
    # the innermost heading names the passage best: the outer ones go first
    while len(headings) > 1 and len(SECTION_SEPARATOR.join([ELLIPSIS, *headings])) > (
        MAX_SECTION_CHARS
    ):
        headings = headings[1:]
    return SECTION_SEPARATOR.join([ELLIPSIS, *headings])
