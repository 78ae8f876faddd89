"""Where an answer names sources without proper markers: record labels and source lists.

- :func:`is_model_source_list` judges a trailing "Sources:" list the model wrote: it may be
  removed only when every item names a registry source (by URL, printed heading, title or
  bracket number, as :mod:`bot.listed_items` reads an item; a title naming several passages
  of one document names that document) and links nowhere else.
- :func:`named_sources` reads which sources such a list (or a footnote definition) names: the
  resolver cites those no marker of the answer cited.
- :class:`MentionMatcher` implements ``infer_from_mentions``: a record label named in the
  answer text without a marker becomes a citation right after the label.
"""

from __future__ import annotations

import re
from typing import Protocol

from bot.listed_items import read_item
from bot.registry import SourceRegistry


def is_model_source_list(registry: SourceRegistry, items: list[str]) -> bool:
    """True when every item names a registry source, or one document of several passages,
    and links nowhere else (an ordered list's own ``1.`` names nothing: :mod:`bot.listed_items`)."""
    for item in items:
        read = read_item(registry, item)
        if None in read.urls or (read.cites(registry) is None and not read.document):
            return False
    return True


def named_sources(registry: SourceRegistry, items: tuple[str, ...]) -> list[int]:
    """The registry numbers the items of a model source list name (by URL, else by printed
    heading, title, filename or label, else by a bracket label's number, as
    :func:`is_model_source_list` reads them; a document several sources share names none of
    them), first named first."""
    out: list[int] = []
    for item in items:
        out += [n for n in read_item(registry, item).names(registry) if n not in out]
    return out


class MentionSink(Protocol):
    """What the matcher writes to (the StreamResolver)."""

    def write_text(self, text: str) -> None:
        """Append answer text."""
        ...

    def is_cited(self, number: int) -> bool:
        """Whether registry source ``number`` is already cited."""
        ...

    def cite_mention(self, number: int, label: str) -> None:
        """Cite registry source ``number`` here, named in the text by ``label``."""
        ...


class MentionMatcher:
    """Finds record labels in the answer text and cites them right after the label.

    Text is held back by the longest label's length so a label split across deltas is still
    found; a label directly followed by a marker citing the same source is not cited twice.
    Each source is inferred at most once, and never when a marker already cited it.
    """

    def __init__(self, owner: MentionSink, registry: SourceRegistry) -> None:
        self.owner = owner
        labels: dict[str, int] = {}
        for number, source in sorted(registry.numbered().items()):
            if source.kind == "record" and source.label and len(source.label.strip()) >= 2:
                labels.setdefault(source.label.strip(), number)
        self.labels = labels
        ordered = sorted(labels, key=len, reverse=True)
        self.pattern = (
            re.compile(r"(?<!\w)(?:" + "|".join(re.escape(x) for x in ordered) + r")(?!\w)")
            if ordered
            else None
        )
        self.hold = max((len(x) for x in ordered), default=0) + 1
        self.buf = ""  # buf[: self.start] was already written (kept as look-behind context)
        self.start = 0
        self.done: set[int] = set()

    def push(self, text: str) -> None:
        """More answer text (held back by the longest label's length)."""
        if self.pattern is None:
            self.owner.write_text(text)
            return
        self.buf += text
        self._release(len(self.buf) - self.hold, ())

    def flush(self, next_numbers: tuple[int, ...]) -> None:
        """Write everything held: a marker citing ``next_numbers`` (or the end) follows."""
        self._release(len(self.buf), next_numbers)

    def _release(self, safe: int, next_numbers: tuple[int, ...]) -> None:
        if safe <= self.start:
            return
        pos = self.start
        if self.pattern is not None:
            for match in self.pattern.finditer(self.buf, self.start):
                if match.start() >= safe:
                    break
                number = self.labels[match[0]]
                followed = match.end() >= len(self.buf) and number in next_numbers
                if followed or number in self.done or self.owner.is_cited(number):
                    continue
                self.done.add(number)
                self.owner.write_text(self.buf[pos : match.end()])
                pos = match.end()
                self.owner.cite_mention(number, match[0])
        cut = max(pos, safe)
        if cut > pos:
            self.owner.write_text(self.buf[pos:cut])
        keep = max(cut - 1, 0)
        self.buf = self.buf[keep:]
        self.start = cut - keep
