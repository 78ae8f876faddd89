"""resolve() and StreamResolver: whatever markers the model wrote -> one canonical Answer.

The answer text comes out as CommonMark with each citation written ``[^n]`` where the marker
was (adjacent ones ``[^1][^2]``); a citation to the same source again reuses its ``n``, and
within one run of adjacent groups (only spaces between them) each source appears once. Every
marker that cannot stand is removed, with the space before it, and listed in
``Answer.dropped`` with its reason (DESIGN §3, §5); what it leaves empty goes with it: brackets
that held only removed markers, one separator next to it, a line with its list item marker,
quote arrows or heading hashes (see ``bot.resolver_text``). Nothing of a source the viewer may
not see reaches the Answer: such a marker is dropped as ``forbidden`` and its id is redacted.

``resolve(raw)`` is exactly ``StreamResolver`` fed the whole text and finished, so the stream's
text deltas always concatenate to ``resolve(raw).text`` whatever the split.

A source has one Citation: a later marker may add a quote or columns to it, which the final
Answer carries but an already emitted CitationAdded event does not.

Bare bracket groups (``[7]``) are markers only while the registry is not empty (DESIGN §5),
asked each time a group is decided, so a StreamResolver may be created before the tools
register sources: text written before the first source keeps its bare groups as text.

A deliberate departure from DESIGN §5, for answers from a model told to cite with ``[n]``
markers (``ResolvePolicy.model_cites``, set by the assistant for the OpenAI backend): there a
bare group is a citation even while the registry is empty, and so are ``(Source 7)`` and
``<sup>7</sup>`` whatever they name, and ``[[7]](url)`` whatever its URL (a URL no source has is
dropped with it: kept, it would be a link labelled "[7]", a citation's look, to a page outside
the source list); each number naming no source is dropped as
``out_of_range`` (``[n]`` as ``placeholder``), as with a non-empty registry, and a trailing
source list whose entries cite numbers no source has is removed (``bot.resolver_invented``).
DESIGN's rule protects text that never meant to cite; a model that was told to cite and names
a source that does not exist (it answered without searching, the search found nothing, or it
wrote before its first tool call) has invented a citation, which must not reach the reader.
``[2023]``, ``[0]``, ``a[0]``, code and ``\\[1\\]`` stay text either way. For
stream == batch, the registry must not change while one answer is being resolved; where it does
grow mid-answer (tools running between model steps), call ``flush()`` before it grows, so the
text before is resolved against the sources that existed when it was written, whatever the
chunking.

The bidi embedding, override and isolate controls and the C0/C1 control codes
(:mod:`bot.bidi_controls`) are removed from the raw text before it is scanned, so neither the
answer text nor any delta of it holds one: the web's ``answer.text``, its "Copy answer" and
``citecast ask`` carry what every channel shows (``"\\u202e91$"`` never pastes as ``$19``). The
removal is character by character, so it cannot depend on where a stream is cut; marker
offsets (``Dropped.offset``) count the text without them.
"""

from __future__ import annotations

import dataclasses
from typing import Final

from bot.bidi_controls import without_bidi_controls
from bot.deeplinks import deep_link
from bot.marker_dagger_labels import DaggerLabels
from bot.marker_lead_ins import LEAD_LAST, ends_in_lead_in
from bot.marker_parse import Grammar, Marker
from bot.marker_targets import marker_targets
from bot.markers import MarkerScanner, Token, Underline, Verbatim
from bot.models import Answer, Citation, CitationAdded, Dropped, DropReason, TextDelta
from bot.registry import SourceRegistry
from bot.resolver_listed import CitedSources, ListedSources
from bot.resolver_policy import ResolvePolicy
from bot.resolver_text import SLOW_LAST
from bot.source_mentions import MentionMatcher

__all__ = ["ResolvePolicy", "StreamResolver", "resolve"]

_NO_EVENTS: Final[list[TextDelta | CitationAdded]] = []  # shared: feed() callers only read it

COALESCE = 128
"""Default of ``StreamResolver(coalesce=…)``: characters gathered before one scan.

A few tokens of a model stream; small enough that the text still flows (Slack's own streaming
helper buffers 256 characters), large enough that the per-scan cost is spread thin.
"""


def resolve(raw: str, registry: SourceRegistry, policy: ResolvePolicy | None = None) -> Answer:
    """Resolve a raw model answer against this turn's registry."""
    stream = StreamResolver(registry, policy)
    return stream._resolve_all(raw)


class StreamResolver(ListedSources):
    """Resolve an answer delta by delta; ``finish()`` gives the same Answer as ``resolve()``."""

    def __init__(
        self,
        registry: SourceRegistry,
        policy: ResolvePolicy | None = None,
        *,
        coalesce: int = COALESCE,
    ) -> None:
        super().__init__()
        self.registry = registry
        self.coalesce = coalesce
        self.policy = policy or ResolvePolicy()
        grammar = Grammar(
            # decided per group when it is read: tools may register the first source mid-turn
            # (a model told to cite means a citation by "[7]" whatever the registry holds)
            bare_numbers=True if self.policy.model_cites else lambda: len(registry) > 0,
            is_known_url=lambda url: bool(registry.numbers_for_url(url)),
            is_known_number=lambda number: registry.get(number) is not None,
            key_word=self.policy.key_word,
            is_source_list=self._is_source_list if self.policy.strip_model_source_lists else None,
            model_cites=self.policy.model_cites,
            source_named=DaggerLabels(registry),
        )
        self._scanner = MarkerScanner(grammar, mark_verbatim=self.policy.infer_from_mentions)
        self._by_number = CitedSources()
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
        delta = without_bidi_controls(delta)  # (see the module docstring)
        labels = self._by_number.labels
        labels.raw.append(delta)  # (a definition line is read from it)
        tokens = self._scanner.feed(delta)
        if not tokens:
            return []
        if len(tokens) == 1 and self._mentions is None and not self._gap and self._indent is None:
            text = tokens[0]
            if (
                text.__class__ is str
                and text[-1] not in SLOW_LAST
                and text[0] != ":"
                and self._open_at < 0
                and self._renumber is None
                and not self._adjacent
                and (text[-1] not in LEAD_LAST or not ends_in_lead_in(text))  # as _text() asks
                and self._prefix_at < 0
                and self._sep_at < 0
                and labels.pending is None
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
        raw = without_bidi_controls(raw)
        self._by_number.labels.raw.append(raw)
        self._consume(self._scanner.scan_all(raw), final=True, events=False)
        return self._answer()

    def _answer(self) -> Answer:
        self._finished = True
        return Answer(
            text="".join(self._pieces),
            citations=tuple(
                sorted(
                    self._by_number.labels.citations(self._by_number, self.registry),
                    key=lambda c: c.n,
                )
            ),
            dropped=tuple(self._dropped),
        )

    # -- tokens -> output ---------------------------------------------------------------------

    def _consume(
        self, tokens: list[Token], final: bool, events: bool = True
    ) -> list[TextDelta | CitationAdded]:
        start = len(self._pieces)
        self._tokens(tokens)
        if final and self._by_number.labels.pending is not None:
            self._read_definition()
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

    def _tokens(self, tokens: list[Token]) -> None:
        if self._by_number.labels.pending is not None:
            self._read_definition()  # the scanner has passed its line
        for token in tokens:
            if isinstance(token, str):
                if token.__class__ is Underline:
                    self._underline(token)
                elif self._mentions is None:
                    self._text(token)
                elif isinstance(token, Verbatim):
                    # code, math or a link: write what came before, then this as it is
                    self._mentions.flush(())
                    self._text(token)
                else:
                    self._mentions.push(token)
            elif token.family == "listed":
                self._listed(token)
                if self._by_number.labels.pending is not None and token is not tokens[-1]:
                    self._read_definition()  # a token after it: the scanner passed its line
            elif token.family == "opener":
                # "[cite_start]", "<co: 3>": removed as a marker naming nothing is, but not
                # dropped (the words after it keep the space before it: ResolvedText._unglue),
                # and separators held before it are the writer's ("[1] and <co: 2>b")
                self._sep_at = -1
                self._write_citations(token.lead, ())
            else:
                self._marker(token)

    def _underline(self, line: str) -> None:
        """A setext underline: see :meth:`GapLines._underline_after_gap`."""
        if self._mentions is not None:
            self._mentions.flush(())  # (as before code: no label runs across a line break)
        self._underline_after_gap(line)

    def _marker(self, marker: Marker) -> None:
        if self._by_number.labels.relabel:
            marker = self._by_number.labels.marker(marker)
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

    # -- the MentionSink side (infer_from_mentions) -------------------------------------------

    def write_text(self, text: str) -> None:
        self._text(text)

    def is_cited(self, number: int) -> bool:
        return number in self._by_number

    def cite_mention(self, number: int, label: str) -> None:
        n = self._cite(number, Marker("record_key", label, 0))
        if n is not None:
            self._write_citations("", [n])
