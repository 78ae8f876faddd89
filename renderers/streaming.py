"""Incremental rendering of a streamed answer: each completed block is rendered once.

Feed it the ``StreamResolver``'s events; at the end call ``finish`` with the final Answer::

    stream = StreamRenderer("slack", context)
    for event in resolver_events:              # TextDelta | CitationAdded
        update = stream.feed([event])
        if update.appended:                    # newly completed blocks, channel format
            show_more(update.appended)
        if time_to_edit():
            replace_tail(stream.preview())     # the open last block, rendered now
    payload = stream.finish(answer)            # == renderers.render("slack", answer, context)

Channel formats of ``appended``/``tail``/``text()``: web sanitized HTML fragments, Slack mrkdwn,
Discord markdown (``discord_contents()`` splits the text so far into messages of at most 2,000
characters for edits), email HTML, Discourse markdown. Blocks are joined as the final render
joins them (a blank line between markdown blocks), so a preview does not jump when it completes;
a table's unfinished last row is held back from the tail (``renderers.open_table_row``).

Cost: text is cut into blocks with ``bot.markdown.split_blocks`` (chunks that parse alone exactly
as in the whole document); a completed chunk is parsed and rendered once and cached. The open
tail is rendered on demand by ``preview()``/``text()`` (call it when you edit a message), or in
every update once it has grown by ``tail_growth`` (e.g. 2.0) when that option is set.
``finish`` parses only the last chunk and assembles the payload from the cached fragments,
falling back to a full ``render`` if the streamed text or citations differ from the final Answer,
or a cached block showed a citation in another form than the final one (its citation arrived
after the block was rendered, as the resolver never sends it, but any order must come out right),
or a cached block has a link labelled like a citation and was rendered with other forms than the
final ones (whether it links depends on the cited sources: ``renderers.link_urls``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.markdown import BlockSplitter, Token, has_reference_definitions, parse
from bot.models import Answer, Citation, CitationAdded, TextDelta
from renderers import channel_module, render
from renderers.base import CitationForm, RenderContext
from renderers.document import Document, cited_numbers, decide_forms, seed
from renderers.limits import DISCORD_MAX_CONTENT
from renderers.link_urls import has_lookalike_links
from renderers.open_table_row import without_open_table_row
from renderers.packing import pack

# how the final render joins block fragments: HTML elements on their own lines, markdown and
# mrkdwn blocks with a blank line between them (Discord's and Discourse's assemble, Slack's
# sections), so a preview's paragraphs stay apart as they will in the final message
_HTML_CHANNELS = frozenset({"web", "email"})


@dataclass(frozen=True)
class StreamUpdate:
    """What changed after a ``feed``: newly completed blocks, and the open tail if re-rendered."""

    appended: str
    tail: str | None


def fragment_text(channel: str, fragment: Any) -> str:
    """A block fragment as text in the channel's format."""
    if channel == "slack":
        return f"*{fragment.text}*" if fragment.kind == "header" else str(fragment.text)
    if channel == "email":
        return str(fragment[0])
    if channel == "web":
        from renderers.web import sanitize

        return sanitize(str(fragment))
    return str(fragment)


class StreamRenderer:
    """Renders a streamed answer block by block for one channel (see the module docstring)."""

    def __init__(
        self,
        channel: str,
        context: RenderContext | None = None,
        *,
        tail_growth: float | None = None,
    ) -> None:
        self.channel = channel
        self.context = context or RenderContext()
        self._module = channel_module(channel)
        self._caps = self.context.caps(channel)
        self._growth = None if tail_growth is None else max(1.01, tail_growth)
        self._join = "\n" if channel in _HTML_CHANNELS else "\n\n"
        self._splitter = BlockSplitter()
        self._citations: dict[int, Citation] = {}
        self._forms: dict[int, CitationForm] = {}
        self._done_text: list[str] = []
        self._streamed = 0
        self._fragments: list[Any] = []
        self._texts: list[str] = []
        self._cited: dict[int, None] = {}
        # each cited number's form when a completed block first showed it (None: no citation
        # had arrived for it yet); ``_forms`` is updated in place, so this is what the cached
        # fragments were really rendered with
        self._shown_forms: dict[int, CitationForm | None] = {}
        self._forms_changed = False
        # the forms a completed block with a link labelled like a citation was written with:
        # whether it shows as a link depends on them (renderers.link_urls)
        self._lookalike_forms: list[dict[int, CitationForm]] = []
        self._tail_shown = 0
        self._step: Any = None
        self._seed: str | None = None

    @property
    def _tail(self) -> str:
        return self._splitter.tail

    def _block_step(self, first_chunk: str | None = None) -> Any:
        if self._step is None:
            text = "".join(self._done_text) + (first_chunk or self._tail)
            answer_seed = seed(text, self.context)
            step = self._module.block_renderer(self._forms, self.context, answer_seed)
            if "\n" not in text:
                return step  # the first line (the seed) may still grow: do not keep this one
            self._seed, self._step = answer_seed, step
        return self._step

    def _add_citation(self, citation: Citation) -> None:
        self._citations[citation.n] = citation
        forms = decide_forms(self._citations.values(), self._caps, self.context)
        # the block step holds a reference to this dict: update it in place
        self._forms.clear()
        self._forms.update(forms)

    def feed(self, events: Iterable[TextDelta | CitationAdded]) -> StreamUpdate:
        """Take resolver events; return the newly completed blocks and maybe the new tail."""
        appended: list[str] = []
        for event in events:
            if isinstance(event, CitationAdded):
                self._add_citation(event.citation)
                continue
            self._streamed += len(event.text)
            for chunk in self._splitter.feed(event.text):
                self._take(parse(chunk), self._block_step(chunk), appended)
                self._done_text.append(chunk)
                self._tail_shown = 0
        tail: str | None = None
        if self._growth is not None:
            size = self._streamed - sum(map(len, self._done_text))
            # after a block completed, always send the new tail ("" clears the old one)
            if appended or (size and size >= max(1, self._tail_shown) * self._growth):
                tail = self._render_tail()
        return StreamUpdate(self._join.join(appended), tail)

    def _take(self, tokens: list[Token], step: Any, appended: list[str]) -> None:
        for token in tokens:
            fragment = step(token)
            self._fragments.append(fragment)
            text = fragment_text(self.channel, fragment)
            self._texts.append(text)
            appended.append(text)
        for n in cited_numbers(tokens):
            self._cited.setdefault(n, None)
            form = self._forms.get(n)
            if self._shown_forms.setdefault(n, form) != form:
                self._forms_changed = True
        if has_lookalike_links(tokens):
            self._lookalike_forms.append(dict(self._forms))

    def _render_tail(self) -> str:
        return self._join.join(self._tail_blocks())

    def _tail_blocks(self) -> list[str]:
        """The open tail's blocks rendered now, a table's unfinished last row left out."""
        self._tail_shown = len(self._tail)
        shown = without_open_table_row(self._tail)
        if not shown.strip():
            return []
        step = self._block_step()
        return [fragment_text(self.channel, step(t)) for t in parse(shown)]

    def preview(self) -> str:
        """The open tail rendered now (whatever its growth)."""
        return self._render_tail()

    def text(self) -> str:
        """Everything so far in the channel's format (completed blocks + the open tail)."""
        tail = self._render_tail()
        return self._join.join([*self._texts, tail] if tail else self._texts)

    def discord_contents(self) -> list[str]:
        """The text so far split into Discord messages of at most 2,000 characters."""
        # each block apart, as the final render packs them
        return pack([*self._texts, *self._tail_blocks()], DISCORD_MAX_CONTENT)

    def finish(self, answer: Answer) -> dict[str, Any]:
        """The final payload, equal to ``renderers.render(channel, answer, context)``."""
        streamed = "".join(self._done_text) + self._tail
        final_forms = decide_forms(answer.citations, self._caps, self.context)
        if (
            streamed != answer.text
            or (self._fragments and final_forms != self._forms)
            or self._forms_changed
            or any(final_forms.get(n) != form for n, form in self._shown_forms.items())
            or any(forms != final_forms for forms in self._lookalike_forms)
            or (len(self._done_text) > 0 and has_reference_definitions(streamed))
        ):
            return render(self.channel, answer, self.context)
        self._forms.clear()
        self._forms.update(final_forms)
        step = self._block_step()
        tail = self._tail
        self._take(parse(tail), step, [])
        self._done_text.append(tail)
        self._splitter = BlockSplitter()
        answer_seed = self._seed if self._seed is not None else seed(answer.text, self.context)
        doc = Document(
            answer, self._caps, self.context, self._forms, tuple(self._cited), answer_seed
        )
        return self._module.assemble(list(self._fragments), doc)
