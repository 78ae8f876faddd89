"""The Discord renderer: markdown content with ``[n]`` markers and a masked-link source list.

Payload: ``{"messages": [{"content", "embeds", "allowed_mentions", "flags", "components"?}],
"files": [{n, path, filename, media_type}]}``. ``allowed_mentions`` is ``{"parse": []}`` on every
message and ``@everyone``/``@here`` are broken with a zero-width joiner as well. Sources are
masked links ``[Title](<url>)`` with embeds suppressed (flag 4), or, when
``Capabilities.embeds`` is set, one "Sources" embed per 4,096 characters. Every listed source
is sent, in as many messages as it takes; each entry is whole in one message (a link longer than
a message, or with embeds than an embed's description, shows as its title alone). Record
actions become link buttons on the last message, the first 25 (Discord's 5 rows of 5); any
further action is a masked link in its entry. Limits held:
2,000 content characters per message, 10 embeds, 256 title, 4,096 description and 6,000 total
embed characters, 10 files.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.markdown import Token
from renderers.base import EMPTY_ANSWER, CitationForm, RenderContext
from renderers.capabilities import DISCORD_MIN_MAX_CHARS, LinkStyle, link_style
from renderers.document import Document
from renderers.escaping import md_text, no_mentions
from renderers.limits import (
    DISCORD_MAX_BUTTON_LABEL,
    DISCORD_MAX_CONTENT,
    DISCORD_MAX_DESCRIPTION,
    DISCORD_MAX_EMBED_TOTAL,
    DISCORD_MAX_EMBEDS,
    truncate,
)
from renderers.markdown_links import autolink, discord_link
from renderers.markdown_writer import EntryLevel, MarkdownWriter
from renderers.packing import pack

CHANNEL = "discord"
SUPPRESS_EMBEDS = 1 << 2
ALLOWED_MENTIONS: dict[str, Any] = {"parse": []}
BUTTONS_PER_ROW = 5
MAX_ROWS = 5


def marker(form: CitationForm | None, n: int) -> str:
    """``[n]`` (``[n?]`` when weakly supported), escaped so it is not a link."""
    return f"\\[{n}?\\]" if form is not None and form.weak else f"\\[{n}\\]"


class DiscordBlocks:
    """Block step of the Discord renderer."""

    def __init__(self, forms: Mapping[int, CitationForm], links: LinkStyle = "masked"):
        self._forms = forms
        self._writer = MarkdownWriter("discord", self.cite, forms=forms, links=links)

    def cite(self, n: int) -> str:
        return marker(self._forms[n], n) if n in self._forms else ""

    def __call__(self, token: Token) -> str:
        return self._writer.block(token)


def block_renderer(
    forms: Mapping[int, CitationForm], context: RenderContext, seed: str
) -> DiscordBlocks:
    """The block step (``seed`` is unused)."""
    return DiscordBlocks(forms, link_style(context.caps(CHANNEL)))


def _text(value: str, limit: int) -> str:
    """Literal, bounded text that cannot ping: titles, file names, details (never a URL)."""
    return no_mentions(md_text(truncate(value, limit)))


FULL = EntryLevel(title=200, detail=200, columns=300, highlight=True)
# a list longer than COMPACT_PAST takes fewer messages this way, every source still in it
COMPACT = EntryLevel(title=80, detail=80, columns=100, highlight=False)
COMPACT_PAST = 5 * DISCORD_MAX_CONTENT
LINK_TOO_LONG = " (link too long to show)"
SOURCES_HEADING = "**Sources**\n"


def _linked(label: str, url: str, limit: int, masked: bool) -> str:
    """``label`` linking to ``url``: a masked link, or (``masked_links: false``) the label as
    text then ``<url>`` (shown as written, without an embed)."""
    if masked or label == url:
        return discord_link(label if label == url else truncate(label, limit), url)
    return f"{_text(label, limit)} {autolink(url, 'discord')}"


def source_line(
    form: CitationForm,
    level: EntryLevel = FULL,
    *,
    link: bool = True,
    button: bool = True,
    masked: bool = True,
) -> str:
    """One source entry, on one line: ``[n] [Title](<url>) — p. 12, Section``.

    Mentions are broken in the text parts only; URLs stay byte for byte. ``link=False`` shows
    the title alone (for a URL longer than a message). A record's action is a masked link
    unless it is a button (``button``: it got one of the 25 a message can carry).
    ``masked=False``: each link is its text, then the bare ``<url>``.
    """
    url = level.url(form.url) if form.url else None
    linked = form.kind in ("link", "download") and url is not None
    # the title as text (a masked link's label is written by discord_link, without escapes)
    title = "" if linked and link else _text(form.title, level.title)
    if linked and url:
        head = _linked(form.title, url, level.title, masked) if link else title + LINK_TOO_LONG
        if form.kind == "download" and form.filename and form.filename != form.title:
            head += f" ({_text(form.filename, 120)})"
    elif form.kind == "attachment":
        # a file without a title is called by its name: "notes.md (attached)", said once
        named = "" if form.filename == form.title else f": {_text(form.filename or '', 120)}"
        head = f"{title} (attached{named})"
    elif form.kind == "name" and form.filename and form.filename != form.title:
        head = f"{title} ({_text(form.filename, 120)})"
    else:
        head = title
    extras = [_text(form.detail, level.detail)] if form.detail and level.detail else []
    record = form.record
    if record and record.columns:
        columns = "; ".join(f"{k}: {v}" for k, v in record.columns)
        extras.append(_text(columns, level.columns))
    if record and record.action and not (record.button and button) and link:
        extras.append(
            _linked(record.action.label, record.action.url, min(level.title, 200), masked)
        )
    line = f"{marker(form, form.n)} {head}"
    if extras:
        line += " \u2014 " + " \u00b7 ".join(extras)
    return line


def _entry(
    form: CitationForm, level: EntryLevel, budget: int, button: bool, masked: bool = True
) -> str:
    """The richest whole entry within ``budget`` characters: at ``level``, compacted, or the
    title without links; an entry is never cut inside, so never across two messages."""
    for candidate in (level, COMPACT):
        line = source_line(form, candidate, button=button, masked=masked)
        if len(line) <= budget:
            return line
    return _cut(source_line(form, COMPACT, link=False, button=button), budget)


def _cut(line: str, budget: int) -> str:
    """A link-free entry shortened to ``budget`` (only under a tightened ``max_chars``),
    without a dangling backslash that would escape the ellipsis."""
    if len(line) <= budget:
        return line
    kept = truncate(line, budget)[:-1]
    if (len(kept) - len(kept.rstrip("\\"))) % 2:
        kept = kept[:-1]
    return kept + "\u2026"


def source_lines(
    doc: Document,
    budget: int = DISCORD_MAX_CONTENT - len(SOURCES_HEADING),
    buttons: list[CitationForm] | None = None,
) -> list[str]:
    """Every listed source, one entry a line of at most ``budget`` characters.

    Nothing is left out (the text cites them all); a list longer than COMPACT_PAST is compacted
    (shorter titles, no quote highlight) so it takes fewer messages. ``buttons``: the records
    whose action is a button (by default :func:`button_forms`).
    """
    listed = doc.entries
    buttoned = {form.n for form in (button_forms(listed) if buttons is None else buttons)}
    masked = doc.caps.masked_links
    lines = [_entry(form, FULL, budget, form.n in buttoned, masked) for form in listed]
    if sum(len(line) + 1 for line in lines) > COMPACT_PAST:
        lines = [_entry(form, COMPACT, budget, form.n in buttoned, masked) for form in listed]
    return lines


def button_forms(listed: tuple[CitationForm, ...]) -> list[CitationForm]:
    """The records whose action is a link button: the first 25 (5 rows of 5, Discord's most
    per message); the actions of any others are masked links in their entries."""
    with_button = [f for f in listed if f.record and f.record.button and f.record.action]
    return with_button[: BUTTONS_PER_ROW * MAX_ROWS]


def _components(forms: list[CitationForm]) -> list[dict[str, Any]]:
    buttons = [
        {
            "type": 2,
            "style": 5,
            "label": truncate(f"[{f.n}] {f.record.action.label}", DISCORD_MAX_BUTTON_LABEL),
            "url": f.record.action.url,
        }
        for f in forms
        if f.record and f.record.action
    ]
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
    # capabilities may only tighten the platform limit (capabilities_for refuses a value
    # outside these bounds; a Capabilities built in code is held to them)
    limit = max(
        DISCORD_MIN_MAX_CHARS, min(doc.caps.max_chars or DISCORD_MAX_CONTENT, DISCORD_MAX_CONTENT)
    )
    buttons = button_forms(doc.listed)
    # an entry goes whole into an embed's description (4,096) or a message's content (2,000)
    budget = DISCORD_MAX_DESCRIPTION if doc.caps.embeds else limit - len(SOURCES_HEADING)
    lines = source_lines(doc, budget, buttons)
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
            blocks.append(SOURCES_HEADING + lines[0])
            body = pack(blocks, limit)
            contents = pack([body[-1], *lines[1:]], limit, sep="\n")
            contents = body[:-1] + contents
        else:
            contents = pack(blocks, limit)
        messages = [_message(c, [], SUPPRESS_EMBEDS) for c in contents or [EMPTY_ANSWER]]
    components = _components(buttons)
    if components:
        messages[-1]["components"] = components
    return {"messages": messages, "files": doc.files}
