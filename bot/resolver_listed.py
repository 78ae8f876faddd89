"""Model-written source lists and footnote definitions in the resolver (a base of
:class:`bot.resolver.StreamResolver`).

A trailing "Sources:" list (or a footnote definition line, ``[^3]: FAQ``) that the model wrote
is removed: the renderers show the citations themselves. What each item names is read by
:mod:`bot.listed_items`; its title or URL decides, not the model's own numbering:

- a source it names that no marker of the answer cited must still reach the reader, so it is
  cited at the end of the text before the list, after its last sentence (``Install with
  pip.[^2]``), when that text ends in a line of prose; after code, a table, a rule, HTML or an
  unclosed code span or math, which a footnote would break or join, the citations go on a line
  of their own instead;
- an item whose label (``[^1]:``, ``[1]``, ``1.``) names another source than its title or URL
  relabels the model's markers: a marker using that label that comes later cites the named
  source; one already read keeps its place and number in the text and its citation names the
  named source in the final Answer (an already emitted ``CitationAdded`` event does not, as
  with a late quote), unless two citations would then name one source. An ordered list's own
  ``1.`` relabels only in a list numbering the model's own notes, never in a recap of the
  sources its markers cite by registry number (:func:`bot.listed_items.numbers_own_notes`).

A definition line is read once the scanner has passed it (at the next token, or the end): the
scanner removes it without its text, so the resolver keeps the raw answer to read it from.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

from bot.deeplinks import deep_link
from bot.listed_items import ListedItem, numbers_own_notes, read_item
from bot.marker_lines import indent_width
from bot.marker_parse import Marker
from bot.markers import MarkerScanner, Token
from bot.models import Citation
from bot.registry import SourceRegistry
from bot.resolver_invented import is_cited_source_list
from bot.resolver_policy import ResolvePolicy
from bot.resolver_text import ResolvedText
from bot.source_mentions import MentionMatcher, is_model_source_list

# a last character that would join the footnote into other syntax ("\\[^1]", "[[^1]", "`[^1]",
# "^[^1]")
_GLUING_LAST = frozenset("\\[`<$|^")
_MAX_DEFINITION = 2048  # characters of a definition line read for what it names
_RELABELED = frozenset({"bracket", "footnote"})  # the families that write the model's labels


def ends_in_prose(line: str) -> bool:
    """Whether a footnote may be written at the end of ``line`` (the last line of the text
    before a removed source list) without changing what the line is: not code, a fence, a
    table row, HTML, a rule or a setext underline."""
    stripped = line.strip(" \t\r")
    if not stripped or indent_width(line) >= 4 or stripped[-1] in _GLUING_LAST:
        return False
    if stripped.startswith(("```", "~~~", "|", "<")):
        return False
    if stripped.count("`") % 2 or stripped.count("$") % 2:
        return False  # a code span or math still open may close after it, around the footnote
    return bool(stripped.strip("-=*_ \t"))


class ListedLabels:
    """What the model's own labels stand for, and the raw answer a definition is read from."""

    __slots__ = ("pending", "raw", "raw_at", "rekey", "relabel")

    def __init__(self) -> None:
        self.raw: list[str] = []  # the raw answer from raw_at on, as fed
        self.raw_at = 0
        self.pending: Marker | None = None  # a definition line not read yet
        self.relabel: dict[int, int] = {}  # label -> source, for markers still to come
        self.rekey: dict[int, int] = {}  # label cited already -> source, for the Answer

    def line_at(self, offset: int) -> str:
        """The raw line from ``offset`` (a definition's line start) on."""
        if len(self.raw) > 1:
            # definitions come in text order: nothing before this one is read again
            self.raw = ["".join(self.raw)[offset - self.raw_at :]]
            self.raw_at = offset
        text = self.raw[0] if self.raw else ""
        start = offset - self.raw_at
        end = text.find("\n", start, start + _MAX_DEFINITION)
        return text[start : end if end >= 0 else start + _MAX_DEFINITION]

    def marker(self, marker: Marker) -> Marker:
        """``marker`` with the labels an earlier definition or list relabeled replaced."""
        if marker.family not in _RELABELED or not any(n in self.relabel for n in marker.numbers):
            return marker
        numbers = (self.relabel.get(n, n) for n in marker.numbers)
        return marker._replace(numbers=tuple(dict.fromkeys(numbers)))

    def citations(self, by_number: dict[int, Citation], registry: SourceRegistry) -> list[Citation]:
        """The citations with the labels cited before their definition re-pointed (where no
        two would name one source: those keep the source their marker named)."""
        if not self.rekey:
            return list(by_number.values())  # (nearly every answer: no label re-pointed)
        targets = {k: self.rekey.get(k, k) for k in by_number}
        while True:
            counts = Counter(targets.values())
            clash = [k for k, t in targets.items() if t != k and counts[t] > 1]
            if not clash:
                break
            for k in clash:
                targets[k] = k
        out: list[Citation] = []
        for number, citation in by_number.items():
            source = registry.get(targets[number])
            if targets[number] != number and source is not None:
                citation = dataclasses.replace(
                    citation,
                    source=source,
                    source_number=targets[number],
                    deep_link=deep_link(source, citation.quote),
                    columns=tuple(c for c in citation.columns if c in (source.columns or {})),
                )
            out.append(citation)
        return out


class CitedSources(dict[int, Citation]):
    """The citations so far by registry number, with what the model's own labels stand for
    (``labels``). One object: a StreamResolver attribute more costs the 1-character stream
    ~8% in ``bench/resolve.py`` (see ``ResolvedText``)."""

    __slots__ = ("labels",)

    def __init__(self) -> None:
        super().__init__()
        self.labels = ListedLabels()


class ListedSources(ResolvedText):
    """The source-list side of the StreamResolver (its base): removed lists and definitions."""

    registry: SourceRegistry
    policy: ResolvePolicy
    _scanner: MarkerScanner
    _by_number: CitedSources
    _mentions: MentionMatcher | None

    def _cite(self, number: int, marker: Marker) -> int | None:
        raise NotImplementedError

    def _tokens(self, tokens: list[Token]) -> None:
        raise NotImplementedError

    def _is_source_list(self, items: list[str]) -> bool:
        if self.policy.model_cites:
            return is_cited_source_list(self.registry, items)
        return is_model_source_list(self.registry, items)

    def _listed(self, listed: Marker) -> None:
        """A removed source list, or a footnote definition (read once the scanner passed it)."""
        if listed.raw:
            self._listed_items(listed, listed.ids)
        else:
            self._by_number.labels.pending = listed

    def _read_definition(self) -> None:
        """The pending definition line, now that the scanner has passed it."""
        listed = self._by_number.labels.pending
        assert listed is not None
        self._by_number.labels.pending = None
        self._listed_items(listed, (self._by_number.labels.line_at(listed.offset),))

    def _listed_items(self, listed: Marker, items: tuple[str, ...]) -> None:
        """The sources a list or definition names that no marker cited so far are cited after
        the text before it (a list with no text before it is the answer's only content and
        stays, its markers read as usual); labels naming other sources are relabeled."""
        reads = [read_item(self.registry, item) for item in items]
        # (computed only for a list that would re-point by its own "1.": nearly none does)
        keep_numbers = any(r.ordered and r.relabels() for r in reads) and not numbers_own_notes(
            self.registry, reads, list(self._by_number)
        )
        missing: list[int] = []
        for read in reads:
            if (keep_numbers and read.ordered) or not self._relabeled(read):
                missing += [
                    n
                    for n in read.names(self.registry)
                    if not self._was_cited(n) and n not in missing
                ]
        alone = bool(listed.raw) and not "".join(self._pieces).strip()
        if not missing and not alone:
            return
        if self._mentions is not None:
            self._mentions.flush(())
        if alone:
            self._rescan(listed)
            return
        self._cite_missing(listed, missing)

    def _relabeled(self, read: ListedItem) -> bool:
        """Whether the item's label was cited already and now stands for the source it names."""
        relabel = read.relabels()
        if relabel is None:
            return False
        label, number = relabel
        if label in self._by_number:
            self._by_number.labels.rekey.setdefault(label, number)
            return self._by_number.labels.rekey[label] == number
        self._by_number.labels.relabel.setdefault(label, number)
        return False

    def _was_cited(self, number: int) -> bool:
        rekey = self._by_number.labels.rekey
        return (number in self._by_number and number not in rekey) or number in rekey.values()

    def _rescan(self, listed: Marker) -> None:
        # (also a list that only invents sources, model_cites: the answer is not emptied)
        grammar = dataclasses.replace(self._scanner.grammar, is_source_list=None)
        scanner = MarkerScanner(grammar, mark_verbatim=self.policy.infer_from_mentions)
        self._tokens(
            [
                t._replace(offset=t.offset + listed.offset) if isinstance(t, Marker) else t
                for t in scanner.scan_all(listed.raw)
            ]
        )

    def _cite_missing(self, listed: Marker, missing: list[int]) -> None:
        shown: list[int] = []
        for number in missing:
            n = self._cite(number, Marker("bracket", f"[{number}]", listed.offset, (number,)))
            if n is not None and n not in shown:
                shown.append(n)
        held = self._held
        if (
            shown
            and "\n" in held
            and not held.strip(" \t\r\n")
            and self._open_at < 0
            and self._prefix_at < 0
            and self._sep_at < 0
            and not self._gap
            and self._indent is None
            and ends_in_prose(self._last_line()[: -len(held)])
        ):
            # after the last sentence, before the line break that ended it
            self._pieces.append("".join(f"[^{n}]" for n in shown))
            self._adjacent = ()
        elif shown:
            self._write_citations("", shown)
            if not listed.raw:
                self._text("\n")  # (a definition's line break went with it)
