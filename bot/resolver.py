"""resolve() and StreamResolver: whatever markers the model wrote -> one canonical Answer.

The answer text comes out as CommonMark with each citation written ``[^n]`` where the marker
was (adjacent ones ``[^1][^2]``); a citation to the same source again reuses its ``n``, and
within one run of adjacent groups (only spaces between them) each source appears once. Every
marker that cannot stand is removed, with the space before it, and listed in
``Answer.dropped`` with its reason (DESIGN §3, §5); what it leaves empty goes with it: brackets
that held only removed markers, one separator next to it, a line with its list item marker,
quote arrows or heading hashes (see ``_unglue``). Nothing of a source the viewer may not see
reaches the Answer: such a marker is dropped as ``forbidden`` and its id is redacted.

``resolve(raw)`` is exactly ``StreamResolver`` fed the whole text and finished, so the stream's
text deltas always concatenate to ``resolve(raw).text`` whatever the split.

A source has one Citation: a later marker may add a quote or columns to it, which the final
Answer carries but an already emitted CitationAdded event does not.

Bare bracket groups (``[7]``) are markers only while the registry is not empty (DESIGN §5),
asked each time a group is decided, so a StreamResolver may be created before the tools
register sources: text written before the first source keeps its bare groups as text. For
stream == batch, the registry must not change while one answer is being resolved; where it does
grow mid-answer (tools running between model steps), call ``flush()`` before it grows, so the
text before is resolved against the sources that existed when it was written, whatever the
chunking.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal

from bot.deeplinks import deep_link
from bot.marker_lines import (
    OPENERS,
    PREFIX_LAST,
    bare_prefix,
    ends_inside_marker,
    reindent,
)
from bot.marker_parse import MAX_TAG, Grammar, Marker
from bot.marker_targets import marker_targets
from bot.markers import MarkerScanner, Token, Verbatim
from bot.models import Answer, Citation, CitationAdded, Dropped, DropReason, TextDelta
from bot.registry import SourceRegistry
from bot.source_mentions import MentionMatcher, is_model_source_list

__all__ = ["ResolvePolicy", "StreamResolver", "resolve"]

_ONLY_CITATIONS = re.compile(r"[ \t]*(?:\[\^\d+\])+")
_SEPARATORS = re.compile(r"[ \t,;]*")
_SEPARATED = re.compile(r"[ \t]*[,;][ \t,;]*")
_SEPARATOR_CHARS: Final = frozenset(" \t,;")
_MAX_GROUP = 64  # what an opener holds back after removed markers: separators and spaces
# a token ending in one of these may open a group or a line prefix the resolver holds back
_HOLD_LAST: Final = frozenset(" \t\r\n") | frozenset(OPENERS) | PREFIX_LAST
_SLOW_LAST: Final = _HOLD_LAST | frozenset(",;")  # and separators, which may wait for a marker
_NO_EVENTS: Final[list[TextDelta | CitationAdded]] = []  # shared: feed() callers only read it

COALESCE = 128
"""Default of ``StreamResolver(coalesce=…)``: characters gathered before one scan.

A few tokens of a model stream; small enough that the text still flows (Slack's own streaming
helper buffers 256 characters), large enough that the per-scan cost is spread thin.
"""


@dataclass(frozen=True)
class ResolvePolicy:
    """How markers become citations.

    ``numbering``: "appearance" shows 1..k in order of first appearance; "registry" keeps the
    registry's numbers. ``max_citations``: distinct sources beyond it are dropped as
    ``over_limit``. ``infer_from_mentions``: a record label named in the answer without a marker
    becomes a citation right after the label. ``strip_model_source_lists``: remove a trailing
    "Sources:" list that only repeats registry sources. ``key_word``: the token word of record
    keys (``[[source key="…"]]``).
    """

    numbering: Literal["appearance", "registry"] = "appearance"
    max_citations: int | None = None
    infer_from_mentions: bool = False
    strip_model_source_lists: bool = True
    key_word: str = "source"


def resolve(raw: str, registry: SourceRegistry, policy: ResolvePolicy | None = None) -> Answer:
    """Resolve a raw model answer against this turn's registry."""
    stream = StreamResolver(registry, policy)
    return stream._resolve_all(raw)


class StreamResolver:
    """Resolve an answer delta by delta; ``finish()`` gives the same Answer as ``resolve()``."""

    def __init__(
        self,
        registry: SourceRegistry,
        policy: ResolvePolicy | None = None,
        *,
        coalesce: int = COALESCE,
    ) -> None:
        self.registry = registry
        self.coalesce = coalesce
        self.policy = policy or ResolvePolicy()
        grammar = Grammar(
            # decided per group when it is read: tools may register the first source mid-turn
            bare_numbers=lambda: len(registry) > 0,
            is_known_url=lambda url: bool(registry.numbers_for_url(url)),
            key_word=self.policy.key_word,
            is_source_list=self._is_source_list if self.policy.strip_model_source_lists else None,
        )
        self._scanner = MarkerScanner(grammar, mark_verbatim=self.policy.infer_from_mentions)
        self._pieces: list[str] = []
        self._tail = ""  # the end of the last line of _pieces[: _tail_n] (see _last_line)
        self._tail_n = 0
        self._held = ""
        self._adjacent: tuple[int, ...] = ()
        self._gap = False
        self._gap_lead = ""  # the spaces before the first removed marker of the gap
        self._after_gap = ""  # spaces and a "\r" held while a removed marker's line is decided
        # what of _held is not only spaces: an opener "(" (at that index of _held) that may
        # hold only removed markers, and a bare line prefix ("- ", "## ") that may stay empty
        self._open_at = -1
        self._prefix_at = -1
        self._heading = False
        # separators held at that index of _held: a removed marker next to them takes them
        # ("[1], [9]." and "[9], [1]." both lose the comma); _sep_before: they came first
        self._sep_at = -1
        self._sep_before = False
        self._sep_spare = ""  # separators after the gap while those before it are held
        self._indent: str | None = None  # the indentation for the line after a removed line
        self._by_number: dict[int, Citation] = {}
        self._dropped: list[Dropped] = []
        self._new: list[Citation] = []
        self._mentions = MentionMatcher(self, registry) if self.policy.infer_from_mentions else None
        self._finished = False
        self._gathered: list[str] = []
        self._room = 0  # the first delta is scanned at once: the answer starts showing at once

    def feed(self, delta: str) -> list[TextDelta | CitationAdded]:
        """Events that ``delta`` makes certain: new citations first, then the text using them.

        After the first delta, and once the registry has a source, deltas are gathered until
        ``coalesce`` characters have arrived (or ``finish()``), then scanned together: a model
        streams a few characters per delta, and a scanner pass per delta would cost more than
        the scan itself. The answer does not depend on it: it only changes where the text
        deltas are cut, and delays them by at most ``coalesce`` characters.
        """
        self._room -= len(delta)
        if self._room > 0:
            self._gathered.append(delta)
            return _NO_EVENTS  # no allocation per gathered delta (a stream feeds many)
        if self._finished:
            raise ValueError("feed() after finish()")
        # while no tool has registered a source, every delta is scanned as it comes, so a bare
        # "[7]" written before the first source is decided as text (see the module docstring)
        self._room = self.coalesce if len(self.registry) else 0
        if self._gathered:
            self._gathered.append(delta)
            delta = "".join(self._gathered)
            self._gathered = []
        return self._feed(delta)

    def flush(self) -> list[TextDelta | CitationAdded]:
        """Scan the text gathered so far now, and return its events.

        Call it before the registry grows (a backend's tools are about to register sources):
        gathered text is otherwise scanned against the registry as it is when the gathering
        ends, so a marker written before a source existed could cite it, depending on how the
        text was chunked. Like the gathering, it changes only where text deltas are cut: with an
        unchanged registry the Answer is the same with or without it.
        """
        if self._finished:
            raise ValueError("flush() after finish()")
        if not self._gathered:
            return []
        delta = "".join(self._gathered)
        self._gathered = []
        return self._feed(delta)

    def _feed(self, delta: str) -> list[TextDelta | CitationAdded]:
        tokens = self._scanner.feed(delta)
        if not tokens:
            return []
        if len(tokens) == 1 and self._mentions is None and not self._gap and self._indent is None:
            text = tokens[0]
            if (
                text.__class__ is str
                and text[-1] not in _SLOW_LAST
                and text[0] != ":"
                and self._open_at < 0
                and self._prefix_at < 0
                and self._sep_at < 0
            ):
                # fast path: one plain piece that needs no whitespace or glue handling
                assert isinstance(text, str)
                self._adjacent = ()
                if self._held:
                    text = self._held + text
                    self._held = ""
                self._pieces.append(text)
                return [TextDelta(text)]
        return self._consume(tokens, final=False)

    def finish(self) -> tuple[list[TextDelta | CitationAdded], Answer]:
        """The remaining events, then the final Answer."""
        if self._finished:
            raise ValueError("finish() called twice")
        self._room = 0  # a later feed() must reach the check below
        events = self._feed("".join(self._gathered)) if self._gathered else []
        self._gathered = []
        events += self._consume(self._scanner.finish(), final=True)
        return events, self._answer()

    def _resolve_all(self, raw: str) -> Answer:
        """The whole text at once: the same Answer as feed(raw) + finish(), with no events."""
        if self._finished or self._pieces:
            raise ValueError("_resolve_all() on a used resolver")
        self._consume(self._scanner.scan_all(raw), final=True, events=False)
        return self._answer()

    def _answer(self) -> Answer:
        self._finished = True
        return Answer(
            text="".join(self._pieces),
            citations=tuple(sorted(self._by_number.values(), key=lambda c: c.n)),
            dropped=tuple(self._dropped),
        )

    # -- tokens -> output ---------------------------------------------------------------------

    def _consume(
        self, tokens: list[Token], final: bool, events: bool = True
    ) -> list[TextDelta | CitationAdded]:
        start = len(self._pieces)
        for token in tokens:
            if isinstance(token, str):
                if self._mentions is None:
                    self._text(token)
                elif isinstance(token, Verbatim):
                    # code, math or a link: write what came before, then this as it is
                    self._mentions.flush(())
                    self._text(token)
                else:
                    self._mentions.push(token)
            else:
                self._marker(token)
        if final and self._mentions is not None:
            self._mentions.flush(())
        if final:
            self._release_held()
        if not events:
            self._new = []
            return []
        out: list[TextDelta | CitationAdded] = [CitationAdded(c) for c in self._new]
        self._new = []
        text = "".join(self._pieces[start:])
        if text:
            out.append(TextDelta(text))
        return out

    def _text(self, text: str) -> None:
        if self._indent is not None and text:
            text, self._indent = reindent(text, self._indent), None
        if self._gap and text:
            text = self._unglue(text)
        if not text:
            return
        if text[0] == ":" and self._adjacent and _ONLY_CITATIONS.fullmatch(self._last_line()):
            text = "\\" + text  # "[^1]: …" at a line start would read as a definition
        if self._sep_at >= 0:
            if _SEPARATORS.fullmatch(text):
                self._held += text
                return
            self._sep_at = -1  # text follows: the separators are written with it
        elif self._adjacent and text[-1] in _SEPARATOR_CHARS and _SEPARATED.fullmatch(text):
            # "[1], " may be followed by a marker that is removed: the comma waits for it
            self._adjacent = ()
            self._sep_at, self._sep_before = len(self._held), True
            self._held += text
            return
        self._adjacent = ()
        body = text.rstrip(" \t\r\n")
        if not body:
            if (self._open_at >= 0 or self._prefix_at >= 0) and ("\n" in text or "\r" in text):
                # the line ended: an opener or line prefix before it was the writer's own
                self._open_at = self._prefix_at = -1
            self._held += text
            return
        combined = self._held + body if self._held else body
        if (
            body[-1] in _HOLD_LAST
            and "\n" not in text[len(body) :]
            and "\r" not in text[len(body) :]
        ):
            cut = self._hold(combined)
            if cut:
                self._pieces.append(combined[:cut])
            self._held = combined[cut:] + text[len(body) :]
            return
        self._open_at = self._prefix_at = self._sep_at = -1
        self._pieces.append(combined)
        self._held = text[len(body) :]

    def _hold(self, text: str) -> int:
        """Where the tail of ``text`` that must wait for what follows begins.

        An opener "(" waits, with the spaces before it, until it is known whether the group
        holds only removed markers (``Fact ([9]).`` becomes ``Fact.``); a line that is only a
        list item's marker, a heading's hashes or blockquote arrows waits until it is known
        whether content follows (``- [9]`` leaves no empty item).
        """
        self._open_at = self._prefix_at = self._sep_at = -1
        cut = len(text)
        opener = -1
        if text[-1] in OPENERS:
            opener = len(text) - 1
            cut = _space_start(text, opener)
        line = text.rfind("\n", 0, cut) + 1
        if 0 < cut - line <= 32 and (line or not self._pieces) and text[cut - 1] in PREFIX_LAST:
            kind = bare_prefix(text, line, cut)
            if kind is not None:
                self._heading = kind == "heading"
                cut = _space_start(text, line)
                self._prefix_at = line - cut
        if opener >= 0:
            self._open_at = opener - cut
        return cut

    def _trailing_backslashes(self) -> int:
        count = 0
        for piece in reversed(self._pieces):
            kept = piece.rstrip("\\")
            count += len(piece) - len(kept)
            if kept:
                break
        return count

    def _last_line(self, limit: int | None = None) -> str:
        """The output's last line; with ``limit``, at least its last ``limit`` characters."""
        if limit is not None:
            # asked at each removed marker: the pieces written since the last time are folded
            # into a bounded tail, so many short pieces are not walked again each time
            new = self._pieces[self._tail_n :]
            if new:
                self._tail_n = len(self._pieces)
                joined = "".join(new)
                cut = joined.rfind("\n")
                line = joined[cut + 1 :] if cut >= 0 else self._tail + joined
                self._tail = line[-limit:] if len(line) > 2 * limit else line
            return self._tail + self._held
        tail: list[str] = [self._held]
        size = len(self._held)
        for piece in reversed(self._pieces):
            cut = piece.rfind("\n")
            tail.append(piece[cut + 1 :])
            size += len(piece)
            if cut >= 0 or (limit is not None and size >= limit):
                break
        return "".join(reversed(tail))

    def _unglue(self, text: str) -> str:
        """Text after a removed marker, so the removal cannot create new markdown syntax.

        A line that held only dropped markers disappears with its line break (with its list
        item marker or blockquote arrows; a heading's hashes leave the line break that ended the
        paragraph before), and at a line start the spaces after a dropped marker go too; the
        line after it loses an indentation that would make it code. A group that held only
        dropped markers (``([9], [10])``) goes with its brackets and the spaces before them.
        Where the removal would glue text into new syntax (a fence, list item or table row at a
        line start; a backtick, dollar, tilde, backslash, ``<``, ``[`` or ``【`` meeting what
        follows; the rest of a marker after its unclosed start, as in ``[^[9]1]``) a zero-width
        space keeps the two apart. The marker grammar never reads one inside a marker.
        """
        if self._open_at >= 0:
            text = self._close_group(text)
            if not text or not self._gap:
                return text
        sep_at = self._sep_at
        if sep_at >= 0:
            # what follows decides; whatever the split, the text after the gap is then read
            # as one piece, as a whole-text resolve() reads it
            if _SEPARATORS.fullmatch(text):
                if self._sep_before:
                    self._sep_spare += text
                else:
                    self._held += text
                return ""
            if self._sep_before:
                # "[1], [9]." -> "[^1].": the removed marker took the separator before it
                text, self._sep_spare = self._sep_spare + text, ""
            else:
                text = self._held[sep_at:] + text
            self._held = self._held[:sep_at]
            self._sep_at = -1
        held = self._held
        last = held[-1:] or (self._pieces[-1][-1:] if self._pieces else "")
        prefix = self._prefix_at >= 0 and self._open_at < 0
        line_start = last in ("", "\n") or prefix
        if sep_at < 0 and not line_start and _SEPARATED.fullmatch(text):
            # "[9], " may be followed by a citation, which then comes without the comma
            self._sep_at, self._sep_before = len(held), False
            self._held += text
            return ""
        if line_start:
            text, self._after_gap = self._after_gap + text, ""
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
                    if self._heading and self._pieces and self._held.count("\n") < 2:
                        self._held += rest[:size]  # the heading ended the paragraph before it
                after = rest[size:]
                if not after:
                    self._indent = indent
                return reindent(after, indent) if after else ""
            if rest[0] in "`~-*+|#>" or rest[0].isdecimal():
                # a fence, a table row that lost its first cell, a heading, a quote, or a list
                # item the scanner did not read as one (after a blank line, its indented
                # continuation would be code in one reading and text in the other)
                rest, text = "\u200b" + rest, "\u200b" + text
            if prefix:
                self._gap = False
                return text  # content follows: the item stays as written
            text = rest
        elif last in "`~$<[【\ue200\\" or (
            text[0] not in "\r\n" and ends_inside_marker(self._last_line(MAX_TAG))
        ):
            # an opener still unclosed before the gap ("[^" then "1]", "<cita" then "tion>"):
            # joined, the two halves would spell a marker no one resolved
            text = "\u200b" + text
        self._gap = False
        return text

    def _close_group(self, text: str) -> str:
        """After removed markers in a held group: what of ``text`` is left to write.

        Separators and spaces wait with the opener; its closer removes the group; other text
        keeps the opener but not the removed markers' separators (``([9], p. 3)`` → ``(p. 3)``).
        """
        seps = _SEPARATORS.match(text).end()  # type: ignore[union-attr]
        at = self._open_at
        if seps == len(text):
            if len(self._held) - at + seps <= _MAX_GROUP:
                self._held += text
                return ""
            # too long for a group of markers: written as it came (an opener and separators
            # between the gap's two sides: nothing there can join into a marker)
            self._open_at = self._prefix_at = -1
            self._gap = False
            return text
        self._open_at = -1
        if text[seps] == OPENERS[self._held[at]]:
            self._held = self._held[:at].rstrip(" \t")
            return text[seps + 1 :]
        self._held = self._held[: at + 1]
        self._prefix_at = -1  # the line has content: the opener
        return text[seps:]

    def _release_held(self) -> None:
        """At the end: what is held and not only spaces is written (an empty line goes)."""
        held = self._held
        if self._gap and self._prefix_at >= 0 and self._open_at < 0:
            held = held[: self._prefix_at]
        elif self._gap and self._sep_at >= 0 and self._sep_before:
            held = held[: self._sep_at]
        body = held.rstrip(" \t\r\n")
        if body:
            self._pieces.append(body)
        self._held = self._sep_spare = ""
        self._open_at = self._prefix_at = self._sep_at = -1

    def _write_citations(self, lead: str, numbers: Iterable[int]) -> None:
        adjacent = self._adjacent
        shown = [n for n in numbers if n not in adjacent] if adjacent else list(numbers)
        if not shown:
            # "[9], [10]" or "[1], [9], [10]": a separator between two removed markers goes
            if self._sep_at >= 0 and not self._sep_before:
                self._held = self._held[: self._sep_at]
                self._sep_at = -1
            self._sep_spare = ""
            if not self._gap:
                self._gap, self._gap_lead = True, lead
            return
        if self._sep_at >= 0:
            if not self._sep_before:
                self._held = self._held[: self._sep_at]  # "[9], [1]" -> "[^1]"
            self._sep_at = -1  # "[1], [9], [2]": the first comma stays
            self._sep_spare = ""
        opened = self._gap and self._open_at >= 0
        if opened:
            # "([9], [1])": the citation follows the opener, without the removed separators
            self._held = self._held[: self._open_at + 1]
        if adjacent or opened:
            lead = ""
        elif not lead and self._gap:
            lead = self._gap_lead  # "fact [9][1]": the citation keeps the space before the run
        if (
            not lead
            and not self._held
            and self._pieces
            and (self._pieces[-1][-1] == "[" or self._trailing_backslashes() % 2)
        ):
            # "[" before "[^n]" would double its bracket ("[[[1]]]" must not become the one
            # marker "[[^1]]"), and an odd backslash would escape it
            lead = "\u200b"
        if len(shown) == 1:
            self._text(lead + _footnote(shown[0]))
        else:
            self._text(lead + "".join(_footnote(n) for n in shown))
        # the run goes on until text other than spaces: each source appears once in it
        self._adjacent = adjacent + tuple(shown)

    def _marker(self, marker: Marker) -> None:
        targets = marker_targets(marker, self.registry, self._drop)
        if self._mentions is not None:
            self._mentions.flush(tuple(targets))
        shown: list[int] = []
        for number in targets:
            n = self._cite(number, marker)
            if n is not None and n not in shown:
                shown.append(n)
        self._write_citations(marker.lead, shown)

    # -- markers -> citations -----------------------------------------------------------------

    def _cite(self, number: int, marker: Marker) -> int | None:
        citation = self._by_number.get(number)
        if citation is not None:
            if marker.quote and citation.quote is None:
                # a later tag may carry the quote the first marker lacked (the final Answer has it)
                citation = dataclasses.replace(
                    citation,
                    quote=marker.quote,
                    deep_link=deep_link(citation.source, marker.quote) or citation.deep_link,
                )
            if marker.columns and citation.source.columns:
                # columns any marker attributes to the source join its one citation (first seen
                # first); like a late quote, the final Answer has them, a past event may not
                known = citation.source.columns
                extra = tuple(
                    c
                    for c in dict.fromkeys(marker.columns)
                    if c in known and c not in citation.columns
                )
                if extra:
                    citation = dataclasses.replace(citation, columns=citation.columns + extra)
            self._by_number[number] = citation
            return citation.n
        limit = self.policy.max_citations
        if limit is not None and len(self._by_number) >= limit:
            self._drop(marker, "over_limit")
            return None
        source = self.registry.get(number)
        assert source is not None
        n = number if self.policy.numbering == "registry" else len(self._by_number) + 1
        columns: tuple[str, ...] = ()
        if marker.columns and source.columns:
            columns = tuple(c for c in dict.fromkeys(marker.columns) if c in source.columns)
        citation = Citation(
            n=n,
            source=source,
            source_number=number,
            quote=marker.quote,
            deep_link=deep_link(source, marker.quote),
            columns=columns,
        )
        self._by_number[number] = citation
        self._new.append(citation)
        return n

    def _drop(self, marker: Marker, reason: DropReason, redact: str | None = None) -> None:
        raw = marker.raw.replace(redact, "…") if redact else marker.raw
        self._dropped.append(Dropped(marker=raw, reason=reason, offset=marker.offset))

    # -- model-written source lists -----------------------------------------------------------

    def _is_source_list(self, items: list[str]) -> bool:
        return is_model_source_list(self.registry, items)

    # -- the MentionSink side (infer_from_mentions) -------------------------------------------

    def write_text(self, text: str) -> None:
        self._text(text)

    def is_cited(self, number: int) -> bool:
        return number in self._by_number

    def cite_mention(self, number: int, label: str) -> None:
        n = self._cite(number, Marker("record_key", label, 0))
        if n is not None:
            self._write_citations("", [n])


def _space_start(text: str, end: int) -> int:
    """Where the run of spaces and line breaks that ends at ``end`` begins."""
    while end > 0 and text[end - 1] in " \t\r\n":
        end -= 1
    return end


@functools.lru_cache(maxsize=512)
def _footnote(n: int) -> str:
    return f"[^{n}]"
