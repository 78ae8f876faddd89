"""The Discord renderer: markdown content with ``[n]`` markers and a masked-link source list.

Payload: ``{"messages": [{"content", "embeds", "allowed_mentions", "flags", "components"?}],
"files": [{n, path, filename, media_type}]}``. ``allowed_mentions`` is ``{"parse": []}`` on every
message and ``@everyone``/``@here`` are broken with a zero-width joiner as well. Sources are
masked links ``[Title](<url>)`` with embeds suppressed (flag 4), or, when
``Capabilities.embeds`` is set, one "Sources" embed per 4,096 characters. Record actions become
link buttons on the last message. Limits held: 2,000 content characters per message, 10 embeds,
256 title, 4,096 description and 6,000 total embed characters, 10 files.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.markdown import Token
from renderers.base import CitationForm, RenderContext
from renderers.document import Document
from renderers.escaping import md_text, no_mentions
from renderers.limits import (
    DISCORD_MAX_BUTTON_LABEL,
    DISCORD_MAX_CONTENT,
    DISCORD_MAX_DESCRIPTION,
    DISCORD_MAX_EMBED_TOTAL,
    DISCORD_MAX_EMBEDS,
    pack,
    truncate,
)
from renderers.markdown_writer import MarkdownWriter, masked_link

CHANNEL = "discord"
SUPPRESS_EMBEDS = 1 << 2
ALLOWED_MENTIONS: dict[str, Any] = {"parse": []}
MAX_SOURCE_CHARS = 5 * DISCORD_MAX_CONTENT
BUTTONS_PER_ROW = 5
MAX_ROWS = 5


def marker(form: CitationForm | None, n: int) -> str:
    """``[n]`` (``[n?]`` when weakly supported), escaped so it is not a link."""
    return f"\\[{n}?\\]" if form is not None and form.weak else f"\\[{n}\\]"


class DiscordBlocks:
    """Block step of the Discord renderer."""

    def __init__(self, forms: Mapping[int, CitationForm]):
        self._forms = forms
        self._writer = MarkdownWriter("discord", self.cite)

    def cite(self, n: int) -> str:
        return marker(self._forms[n], n) if n in self._forms else ""

    def __call__(self, token: Token) -> str:
        return self._writer.block(token)


def block_renderer(
    forms: Mapping[int, CitationForm], context: RenderContext, seed: str
) -> DiscordBlocks:
    """The block step (``seed`` is unused)."""
    return DiscordBlocks(forms)


def _text(value: str, limit: int) -> str:
    """Literal, bounded text that cannot ping: titles, file names, details (never a URL)."""
    return no_mentions(md_text(truncate(value, limit)))


def source_line(form: CitationForm) -> str:
    """One source entry, on one line: ``[n] [Title](<url>) — p. 12, Section``.

    Mentions are broken in the text parts only; URLs stay byte for byte.
    """
    # every part is bounded so an entry stays one line well inside a message
    title = _text(form.title, 200)
    if form.kind in ("link", "download") and form.url:
        head = masked_link(title, form.url, "discord")
        if form.kind == "download" and form.filename:
            head += f" ({_text(form.filename, 120)})"
    elif form.kind == "attachment":
        head = f"{title} (attached: {_text(form.filename or '', 120)})"
    elif form.kind == "name" and form.filename and form.filename != form.title:
        head = f"{title} ({_text(form.filename, 120)})"
    else:
        head = title
    extras = [_text(form.detail, 200)] if form.detail else []
    if form.record and form.record.columns:
        columns = "; ".join(f"{k}: {v}" for k, v in form.record.columns)
        extras.append(_text(columns, 300))
    if form.record and form.record.action and not form.record.button:
        label = _text(form.record.action.label, 200)
        extras.append(masked_link(label, form.record.action.url, "discord"))
    line = f"{marker(form, form.n)} {head}"
    if extras:
        line += " \u2014 " + " \u00b7 ".join(extras)
    return line


def source_lines(doc: Document) -> list[str]:
    """The source entries, compacted to "and N more" only past MAX_SOURCE_CHARS."""
    lines: list[str] = []
    used = 0
    listed = doc.listed
    for index, form in enumerate(listed):
        line = source_line(form)
        if used + len(line) > MAX_SOURCE_CHARS:
            more = f"and {len(listed) - index} more"
            url = doc.context.full_list_url()
            lines.append(masked_link(more, url, "discord") if url else more)
            break
        lines.append(line)
        used += len(line) + 1
    return lines


def _components(doc: Document) -> list[dict[str, Any]]:
    buttons = [
        {
            "type": 2,
            "style": 5,
            "label": truncate(f"[{f.n}] {f.record.action.label}", DISCORD_MAX_BUTTON_LABEL),
            "url": f.record.action.url,
        }
        for f in doc.listed
        if f.record and f.record.button and f.record.action
    ][: BUTTONS_PER_ROW * MAX_ROWS]
    return [
        {"type": 1, "components": buttons[i : i + BUTTONS_PER_ROW]}
        for i in range(0, len(buttons), BUTTONS_PER_ROW)
    ]


def _embeds(lines: list[str]) -> list[list[dict[str, Any]]]:
    """Source embeds grouped per message (10 embeds and 6,000 characters each)."""
    descriptions = pack(lines, DISCORD_MAX_DESCRIPTION, sep="\n")
    groups: list[list[dict[str, Any]]] = [[]]
    total = 0
    for index, description in enumerate(descriptions):
        title = "Sources" if index == 0 else "Sources (continued)"
        size = len(title) + len(description)
        if len(groups[-1]) >= DISCORD_MAX_EMBEDS or total + size > DISCORD_MAX_EMBED_TOTAL:
            groups.append([])
            total = 0
        groups[-1].append({"title": title, "description": description})
        total += size
    return [g for g in groups if g]


def _message(content: str, embeds: list[dict[str, Any]], flags: int) -> dict[str, Any]:
    return {"content": content, "embeds": embeds, "allowed_mentions": ALLOWED_MENTIONS,
            "flags": flags}  # fmt: skip


def assemble(fragments: list[str], doc: Document) -> dict[str, Any]:
    """The Discord payload from rendered blocks."""
    lines = source_lines(doc)
    # capabilities may only tighten the platform limit
    limit = max(200, min(doc.caps.max_chars or DISCORD_MAX_CONTENT, DISCORD_MAX_CONTENT))
    messages: list[dict[str, Any]] = []
    if doc.caps.embeds and lines:
        contents = pack(fragments, limit) or [""]
        groups = _embeds(lines)
        for index, content in enumerate(contents):
            embeds = groups.pop(0) if index == len(contents) - 1 and groups else []
            messages.append(_message(content, embeds, 0))
        messages.extend(_message("", group, 0) for group in groups)
    else:
        blocks = list(fragments)
        if lines:
            blocks.append("**Sources**\n" + lines[0])
            body = pack(blocks, limit)
            contents = pack([body[-1], *lines[1:]], limit, sep="\n")
            contents = body[:-1] + contents
        else:
            contents = pack(blocks, limit)
        messages = [_message(c, [], SUPPRESS_EMBEDS) for c in contents or ["(empty answer)"]]
    components = _components(doc)
    if components:
        messages[-1]["components"] = components
    return {"messages": messages, "files": doc.files}
