"""What a reader makes of one file: its title, front-matter hints and a list of text blocks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

BlockKind = Literal["text", "code"]


@dataclass(frozen=True)
class Block:
    """A paragraph-sized piece of a document, with the heading path and page it sits under."""

    text: str
    section: str | None = None
    page: int | None = None
    kind: BlockKind = "text"


@dataclass(frozen=True)
class Document:
    """A parsed file. ``audience`` and ``url`` come from front matter or HTML meta tags."""

    title: str | None
    media_type: str
    blocks: list[Block] = field(default_factory=list)
    audience: tuple[str, ...] | None = None
    url: str | None = None
    pages: int | None = None


class Unreadable(Exception):  # noqa: N818 - a reason to skip, not a failure of citecast
    """A reader cannot use this file; the message is the reason shown in the ingest summary."""


def clean_heading(text: str) -> str:
    """Heading text without Markdown decoration: emphasis, code ticks, link targets, ``#``s."""
    import re

    text = re.sub(r"\s+#+\s*$", "", text.strip())
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[*_`]+", "", text)
    return " ".join(text.split())


class HeadingPath:
    """The stack of headings above the current line; ``path`` is "A > B > C"."""

    def __init__(self) -> None:
        self._stack: list[tuple[int, str]] = []

    def enter(self, level: int, text: str) -> None:
        """A heading of ``level`` starts: close every heading at that level or deeper."""
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()
        if text:
            self._stack.append((level, text))

    @property
    def path(self) -> str | None:
        """The heading path, or None before the first heading."""
        return " > ".join(text for _, text in self._stack) or None
