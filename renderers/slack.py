"""The Slack renderer: Block Kit ``section`` blocks in mrkdwn plus ``context`` source blocks.

Payload: ``{"messages": [{"text", "blocks", "unfurl_links": False, "unfurl_media": False}],
"files": [{n, path, filename, media_type}]}``. Citations are ``<url|[n]>`` inline when the source
has a link, then the sources follow as context blocks of ``<url|[n] Title>`` elements (ten per
block), with an actions block of record buttons. Limits held: 50 blocks per message, 3,000
characters per section text, 10 context elements, 150 header characters, a short plain ``text``
fallback (at most 3,000 of the 40,000 allowed characters).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from bot.markdown import Token
from renderers.base import CitationForm, RenderContext
from renderers.document import Document
from renderers.escaping import one_line, slack_link_text, slack_text, slack_url, visible
from renderers.limits import (
    SLACK_FALLBACK_CHARS,
    SLACK_MAX_BLOCKS,
    SLACK_MAX_BUTTON_LABEL,
    SLACK_MAX_CONTEXT_ELEMENTS,
    SLACK_MAX_CONTEXT_TEXT,
    SLACK_MAX_HEADER_CHARS,
    SLACK_MAX_SECTION_CHARS,
    pack,
    truncate,
)
from renderers.mrkdwn import MrkdwnWriter
from renderers.text_writer import TextWriter

CHANNEL = "slack"
MAX_SOURCE_CONTEXT_BLOCKS = 20
MAX_BUTTONS = 25
EMPTY = "(empty answer)"


@dataclass(frozen=True)
class SlackPart:
    """One rendered top-level block: mrkdwn ``text`` or a ``header``.

    ``plain()`` gives its plain text for the fallback; it is computed only for the first blocks,
    since the fallback is short.
    """

    kind: Literal["text", "header"]
    text: str
    plain: Callable[[], str]


def marker(form: CitationForm | None, n: int) -> str:
    """``[n]`` (``[n?]`` when weakly supported)."""
    return f"[{n}?]" if form is not None and form.weak else f"[{n}]"


class SlackBlocks:
    """Block step of the Slack renderer."""

    def __init__(self, forms: Mapping[int, CitationForm]):
        self._forms = forms
        self._writer = MrkdwnWriter(self.cite, self.cite_plain)
        self._plain = TextWriter(self.cite_plain)

    def cite(self, n: int) -> str:
        form = self._forms.get(n)
        if form is None:
            return ""
        if form.url and form.kind in ("link", "download"):
            return f"<{slack_url(form.url)}|{marker(form, n)}>"
        return marker(form, n)

    def cite_plain(self, n: int) -> str:
        return marker(self._forms.get(n), n) if n in self._forms else ""

    def __call__(self, token: Token) -> SlackPart:
        if token["type"] == "heading" and int(token["attrs"]["level"]) == 1:
            title = one_line(self._writer.plain(token.get("children") or []))
            if not visible(title):
                return SlackPart("text", "", lambda: "")  # Slack rejects an empty header
            # plain_text is not parsed by Slack; the joiner still keeps `<!here>` out of it (added
            # before the cut, so the header stays within Slack's limit)
            shown = truncate(title.replace("<", "<\u200d"), SLACK_MAX_HEADER_CHARS)
            return SlackPart("header", shown, lambda: title)
        return SlackPart("text", self._writer.block(token), lambda: self._plain.block(token))


def block_renderer(
    forms: Mapping[int, CitationForm], context: RenderContext, seed: str
) -> SlackBlocks:
    """The block step (``seed`` is unused: Slack has no per-answer ids)."""
    return SlackBlocks(forms)


def source_element(form: CitationForm) -> str:
    """One context element: ``<url|[n] Title> · p. 12, Section`` (mrkdwn, escaped).

    Every part is bounded, so the element stays within Slack's 2,000 characters without ever
    cutting a link.
    """
    label = f"{marker(form, form.n)} {truncate(one_line(form.title), 200)}"
    filename = slack_text(truncate(one_line(form.filename or ""), 120))
    if form.kind in ("link", "download") and form.url:
        text = f"<{slack_url(form.url)}|{slack_link_text(label)}>"
        if form.kind == "download" and filename:
            text += f" ({filename})"
    elif form.kind == "attachment":
        text = f"{slack_text(label)} (attached: {filename})"
    elif form.kind == "name" and form.filename and form.filename != form.title:
        text = f"{slack_text(label)} ({filename})"
    else:
        text = slack_text(label)
    extras = [slack_text(truncate(one_line(form.detail), 200))] if form.detail else []
    if form.record and form.record.columns:
        columns = "; ".join(f"{k}: {v}" for k, v in form.record.columns)
        extras.append(slack_text(truncate(one_line(columns), 300)))
    if form.record and form.record.action and not form.record.button:
        action = form.record.action
        action_label = slack_link_text(truncate(action.label, 75))
        extras.append(f"<{slack_url(action.url)}|{action_label}>")
    if extras:
        text += " \u00b7 " + " \u00b7 ".join(extras)
    return truncate(text, SLACK_MAX_CONTEXT_TEXT)


def source_blocks(doc: Document) -> list[dict[str, Any]]:
    """Context blocks listing the sources (ten per block), then record buttons."""
    listed = list(doc.listed)
    limit = MAX_SOURCE_CONTEXT_BLOCKS * SLACK_MAX_CONTEXT_ELEMENTS
    elements = [
        source_element(form) for form in listed[: limit - 1 if len(listed) > limit else limit]
    ]
    if len(listed) > limit:
        more = f"and {len(listed) - len(elements)} more"
        url = doc.context.full_list_url()
        elements.append(f"<{slack_url(url)}|{more}>" if url else more)
    blocks: list[dict[str, Any]] = [
        {
            "type": "context",
            "elements": [
                {"type": "mrkdwn", "text": text}
                for text in elements[i : i + SLACK_MAX_CONTEXT_ELEMENTS]
            ],
        }
        for i in range(0, len(elements), SLACK_MAX_CONTEXT_ELEMENTS)
    ]
    buttons = [
        {
            "type": "button",
            "text": {
                "type": "plain_text",
                "text": truncate(
                    f"[{f.n}] {one_line(f.record.action.label)}", SLACK_MAX_BUTTON_LABEL
                ),
            },
            "url": f.record.action.url,
            "action_id": f"citecast_source_{f.n}",
        }
        for f in listed
        if f.record and f.record.button and f.record.action
    ]
    for i in range(0, len(buttons), MAX_BUTTONS):
        blocks.append({"type": "actions", "elements": buttons[i : i + MAX_BUTTONS]})
    return blocks


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


def fallback_text(parts: list[SlackPart]) -> str:
    """The notification/fallback ``text``: the answer's plain text, short, escaped."""
    plains: list[str] = []
    size = 0
    for part in parts:
        if not visible(part.text):
            continue
        plain = one_line(part.plain())
        plains.append(plain)
        size += len(plain) + 1
        if size > SLACK_FALLBACK_CHARS:
            break
    return truncate(slack_text(" ".join(p for p in plains if p)), SLACK_FALLBACK_CHARS)


def assemble(fragments: list[SlackPart], doc: Document) -> dict[str, Any]:
    """The Slack payload from rendered blocks."""
    # capabilities may only tighten the platform limits
    section_limit = max(
        100, min(doc.caps.max_chars or SLACK_MAX_SECTION_CHARS, SLACK_MAX_SECTION_CHARS)
    )
    max_blocks = max(5, min(doc.caps.max_blocks or SLACK_MAX_BLOCKS, SLACK_MAX_BLOCKS))
    body = _body_blocks(fragments, section_limit) or [
        {"type": "section", "text": {"type": "mrkdwn", "text": EMPTY}}
    ]
    sources = source_blocks(doc)
    messages: list[list[dict[str, Any]]] = []
    current: list[dict[str, Any]] = []
    for block in body + sources:
        if len(current) >= max_blocks:
            messages.append(current)
            current = []
        current.append(block)
    if current or not messages:
        messages.append(current)
    out = []
    for index, blocks in enumerate(messages):
        text = fallback_text(fragments) if index == 0 else "(continued)"
        out.append({"text": text or EMPTY, "blocks": blocks,
                    "unfurl_links": False, "unfurl_media": False})  # fmt: skip
    return {"messages": out, "files": doc.files}
