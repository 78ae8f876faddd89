"""The Slack renderer: Block Kit ``section`` blocks in mrkdwn plus ``context`` source blocks.

Payload: ``{"messages": [{"text", "blocks", "unfurl_links": False, "unfurl_media": False}],
"files": [{n, path, filename, media_type}]}``. Citations are ``<url|[n]>`` inline when the source
has a link, then the sources follow as context blocks of ``<url|[n] Title>`` elements (ten per
block), with an actions block of record buttons. Limits held: 50 blocks and 10,000 characters
of block text per message (a longer answer continues in further messages), 3,000 characters per
section text, 10 context elements of 2,000, 150 header characters, a short one-line plain
``text`` fallback (at most 3,000 of the 40,000 allowed characters).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from bot.markdown import Token, html_block_pieces
from renderers.base import EMPTY_ANSWER, Capabilities, CitationForm, RenderContext
from renderers.capabilities import (
    SLACK_MIN_MAX_BLOCKS,
    SLACK_MIN_SECTION_CHARS,
    LinkStyle,
    link_style,
)
from renderers.document import Document, cell_tokens
from renderers.escaping import (
    one_line,
    slack_text,
    slack_url,
    visible,
)
from renderers.glue import NO_BREAK_SPACE
from renderers.limits import (
    SLACK_FALLBACK_CHARS,
    SLACK_MAX_BLOCKS,
    SLACK_MAX_BLOCKS_TEXT,
    SLACK_MAX_CONTEXT_ELEMENTS,
    SLACK_MAX_HEADER_CHARS,
    SLACK_MAX_SECTION_CHARS,
    truncate,
)
from renderers.mrkdwn import MrkdwnWriter
from renderers.packing import pack
from renderers.slack_sources import button_blocks, fit, marker, source_elements

CHANNEL = "slack"
# blocks whose inline children are their text; the fallback reads every other block through them
_INLINE_HOLDERS = frozenset({"paragraph", "block_text", "heading", "table_cell"})


@dataclass(frozen=True)
class SlackPart:
    """One rendered top-level block: mrkdwn ``text`` or a ``header``.

    ``plain()`` gives its text on one line for the fallback; it is computed only for the first
    blocks, since the fallback is short.
    """

    kind: Literal["text", "header"]
    text: str
    plain: Callable[[], str]


def section_limit(caps: Capabilities) -> int:
    """Characters per section text: capabilities may only tighten Slack's limit
    (:func:`renderers.capabilities.capabilities_for` refuses a value outside its bounds)."""
    limit = caps.max_chars or SLACK_MAX_SECTION_CHARS
    return max(SLACK_MIN_SECTION_CHARS, min(limit, SLACK_MAX_SECTION_CHARS))


def header_text(title: str, markers: Iterable[str], limit: int = SLACK_MAX_HEADER_CHARS) -> str:
    """``title`` within ``limit`` characters, its citation ``markers`` kept.

    The words are shortened, never a marker: markers the cut would drop follow the ellipsis,
    the first held to it as to the word it followed ("A very long heading…\u00a0[1]"). Only
    markers longer than the limit together are cut.
    """
    if len(title) <= limit:
        return title
    lost: list[str] = []
    while True:
        tail = NO_BREAK_SPACE + " ".join(lost) if lost else ""
        shown = truncate(title, max(1, limit - len(tail)))
        missing = [m for m in dict.fromkeys(markers) if m not in shown]
        if missing == lost:  # the cut only moves left as markers are added: this settles
            return truncate(shown + tail, limit)
        lost = missing


class SlackBlocks:
    """Block step of the Slack renderer."""

    def __init__(
        self, forms: Mapping[int, CitationForm], section_chars: int, links: LinkStyle = "masked"
    ):
        self._forms = forms
        # a link longer than a section cannot be sent whole: its marker is then plain text
        self._max_link = section_chars
        # a marker links only as a masked link ("<url|[1]>"): with masked_links off the source
        # list shows the URL, after its title
        self._linked_markers = links == "masked"
        self._writer = MrkdwnWriter(self.cite, self.cite_plain, forms, links)

    def cite(self, n: int) -> str:
        form = self._forms.get(n)
        if form is None:
            return ""
        if form.url and form.kind in ("link", "download") and self._linked_markers:
            link = f"<{slack_url(form.url)}|{marker(form, n)}>"
            if len(link) <= self._max_link:
                return link
        return marker(form, n)

    def cite_plain(self, n: int) -> str:
        return marker(self._forms.get(n), n) if n in self._forms else ""

    def plain(self, token: Token) -> str:
        """The text of a block on one line: no markup, underline, bullet or quote marker."""
        kind = token["type"]
        children = token.get("children") or []
        if kind in _INLINE_HOLDERS:
            if kind == "table_cell":
                children = cell_tokens(children)
            return one_line(self._writer.plain(children))
        if kind == "block_html":
            return one_line(self._writer.plain(html_block_pieces(token)))
        if kind == "block_code":
            return one_line(str(token.get("raw", "")))
        return " ".join(filter(None, (self.plain(c) for c in children)))

    def _markers(self, tokens: list[Token]) -> list[str]:
        found: list[str] = []
        for token in tokens:
            if token["type"] == "citation":
                found.append(self.cite_plain(int(token["attrs"]["n"])))
            else:
                found += self._markers(token.get("children") or [])
        return [m for m in found if m]

    def __call__(self, token: Token) -> SlackPart:
        if token["type"] == "heading" and int(token["attrs"]["level"]) == 1:
            children = token.get("children") or []
            title = one_line(self._writer.plain(children))
            if not visible(title):
                return SlackPart("text", "", lambda: "")  # Slack rejects an empty header
            # plain_text is not parsed by Slack; the joiner still keeps `<!here>` out of it (added
            # before the cut, so the header stays within Slack's limit)
            shown = header_text(title.replace("<", "<\u200d"), self._markers(children))
            return SlackPart("header", shown, lambda: title)
        return SlackPart("text", self._writer.block(token), lambda: self.plain(token))


def block_renderer(
    forms: Mapping[int, CitationForm], context: RenderContext, seed: str
) -> SlackBlocks:
    """The block step (``seed`` is unused: Slack has no per-answer ids)."""
    caps = context.caps(CHANNEL)
    return SlackBlocks(forms, section_limit(caps), link_style(caps))


def _body_blocks(parts: list[SlackPart], limit: int) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    pending: list[str] = []

    def flush() -> None:
        for text in pack(pending, limit):
            blocks.append({"type": "section", "text": {"type": "mrkdwn", "text": text}})
        pending.clear()

    for part in parts:
        if part.kind == "header":
            flush()
            blocks.append({"type": "header", "text": {"type": "plain_text", "text": part.text}})
        elif visible(part.text):
            pending.append(part.text)
    flush()
    return blocks


def block_text_length(block: dict[str, Any]) -> int:
    """The characters of text in ``block``, as Slack sums them for ``msg_blocks_too_long``."""
    texts = [block["text"]["text"]] if "text" in block else []
    for element in block.get("elements", []):
        text = element.get("text")
        texts.append(text["text"] if isinstance(text, dict) else text or "")
    return sum(len(text) for text in texts)


class MessagePacker:
    """Fills messages in order, each within ``max_blocks`` blocks and ``max_text`` characters
    of block text; a block that does not fit starts the next message."""

    def __init__(self, max_blocks: int, max_text: int = SLACK_MAX_BLOCKS_TEXT):
        self.messages: list[list[dict[str, Any]]] = [[]]
        self._max_blocks = max_blocks
        self._max_text = max_text
        self._text = 0  # block text of the last message

    def _fits(self, blocks: int, text: int) -> bool:
        current = self.messages[-1]
        return len(current) + blocks <= self._max_blocks and self._text + text <= self._max_text

    def add(self, block: dict[str, Any]) -> None:
        size = block_text_length(block)
        if self.messages[-1] and not self._fits(1, size):
            self.messages.append([])
            self._text = 0
        self.messages[-1].append(block)
        self._text += size

    def add_source(self, element: str) -> None:
        """A source entry: into the open context block when it has room, else a new block."""
        current = self.messages[-1]
        last = current[-1] if current else None
        if (
            last is not None
            and last["type"] == "context"
            and len(last["elements"]) < SLACK_MAX_CONTEXT_ELEMENTS
            and self._fits(0, len(element))
        ):
            last["elements"].append({"type": "mrkdwn", "text": element})
            self._text += len(element)
        else:
            self.add({"type": "context", "elements": [{"type": "mrkdwn", "text": element}]})


def fallback_text(parts: list[SlackPart]) -> str:
    """The notification/fallback ``text``: the answer's plain text on one line, short, escaped."""
    plains: list[str] = []
    size = 0
    for part in parts:
        if not visible(part.text):
            continue
        plain = part.plain()
        plains.append(plain)
        size += len(plain) + 1
        if size > SLACK_FALLBACK_CHARS:
            break
    return fit(" ".join(p for p in plains if p), SLACK_FALLBACK_CHARS, slack_text)


def assemble(fragments: list[SlackPart], doc: Document) -> dict[str, Any]:
    """The Slack payload from rendered blocks."""
    # capabilities may only tighten the platform limits
    max_blocks = max(
        SLACK_MIN_MAX_BLOCKS, min(doc.caps.max_blocks or SLACK_MAX_BLOCKS, SLACK_MAX_BLOCKS)
    )
    body = _body_blocks(fragments, section_limit(doc.caps)) or [
        {"type": "section", "text": {"type": "mrkdwn", "text": EMPTY_ANSWER}}
    ]
    packer = MessagePacker(max_blocks)
    for block in body:
        packer.add(block)
    for element in source_elements(doc):
        packer.add_source(element)
    for block in button_blocks(doc):
        packer.add(block)
    out = []
    for index, blocks in enumerate(packer.messages):
        text = fallback_text(fragments) if index == 0 else "(continued)"
        out.append({"text": text or EMPTY_ANSWER, "blocks": blocks,
                    "unfurl_links": False, "unfurl_media": False})  # fmt: skip
    return {"messages": out, "files": doc.files}
