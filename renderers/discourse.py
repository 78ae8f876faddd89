"""The Discourse renderer: a post in markdown with native footnotes.

Payload: ``{"raw": str, "uploads": [{n, path, filename, media_type, placeholder}]}``, plus
``"continued": [raw, ...]`` only when the answer does not fit one post (each post carries the
footnote definitions it uses). Citations are ``[^n]`` and each is defined once at the end:
``[^n]: [Title](url), p. 12, Section``. Titles are escaped so they cannot break the definition.

Upload seam: a file to attach is written ``[name|attachment](citecast-upload://n)``; the
connector uploads ``path`` and replaces the entry's ``placeholder`` (that URL) in ``raw`` with
the ``upload://…`` short URL Discourse returned. The post limit is ``Capabilities.max_chars``
(Discourse's default ``max_post_length`` is 32,000).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from bot.markdown import CITATION_MARK, Token
from renderers.base import CitationForm, RenderContext
from renderers.document import Document, file_entry
from renderers.escaping import md_text, no_forum_mentions
from renderers.limits import pack, truncate
from renderers.markdown_writer import MarkdownWriter, escape_text, masked_link

CHANNEL = "discourse"
UPLOAD_SCHEME = "citecast-upload://"
DEFINITION_MAX = 1000


def placeholder(n: int) -> str:
    """The URL a file upload's link carries until the connector substitutes ``upload://``."""
    return f"{UPLOAD_SCHEME}{n}"


class DiscourseBlocks:
    """Block step of the Discourse renderer."""

    def __init__(self, forms: Mapping[int, CitationForm], footnotes: bool):
        self._forms = forms
        self._footnotes = footnotes
        self._writer = MarkdownWriter("discourse", self.cite)

    def cite(self, n: int) -> str:
        form = self._forms.get(n)
        if form is None:
            return ""
        weak = "?" if form.weak else ""
        return f"[^{n}]{weak}" if self._footnotes else f"\\[{n}{weak}\\]"

    def __call__(self, token: Token) -> str:
        return self._writer.block(token)


def block_renderer(
    forms: Mapping[int, CitationForm], context: RenderContext, seed: str
) -> DiscourseBlocks:
    """The block step: footnote references unless sources are hidden (``show: none``)."""
    return DiscourseBlocks(forms, context.show != "none")


def _text(value: str) -> str:
    return no_forum_mentions(md_text(value))


@lru_cache(maxsize=1024)  # the size estimate and the post both need every definition
def definition_body(form: CitationForm) -> str:
    """The text of a footnote definition (one line)."""
    title = _text(truncate(form.title, 300))
    if form.kind in ("link", "download") and form.url:
        head = masked_link(title, form.url, "discourse")
    elif form.kind == "attachment":
        head = f"[{_text(form.filename or form.title)}|attachment]({placeholder(form.n)})"
        if form.title != form.filename:
            head = f"{title}: {head}"
    elif form.kind == "name" and form.filename and form.filename != form.title:
        head = f"{title} ({_text(form.filename)})"
    else:
        head = title
    parts = [head]
    if form.detail:
        parts.append(_text(form.detail))
    if form.record and form.record.columns:
        parts.append("; ".join(f"{_text(k)}: {_text(v)}" for k, v in form.record.columns))
    if form.record and form.record.action:
        action = form.record.action
        parts.append(masked_link(_text(action.label), action.url, "discourse"))
    if form.weak:
        parts.append("weak support?")
    return _fit(", ".join(parts))


def _fit(definition: str) -> str:
    """Cut an over-long definition at a part boundary, never inside a link."""
    if len(definition) <= DEFINITION_MAX:
        return definition
    cut = definition.rfind(", ", 0, DEFINITION_MAX - 1)
    return definition[: cut if cut > 0 else DEFINITION_MAX - 1] + "\u2026"


def _definitions(forms: list[CitationForm], doc: Document, referenced: set[int]) -> list[str]:
    lines = [f"[^{f.n}]: {definition_body(f)}" for f in forms if f.n in referenced]
    others = [f for f in forms if f.n not in referenced]
    if others:
        lines.append("**Other sources**")
        lines.extend(f"- \\[{f.n}\\] {definition_body(f)}" for f in others)
    return lines


def _post(body: str, forms: list[CitationForm], doc: Document, referenced: set[int]) -> str:
    lines = _definitions(forms, doc, referenced)
    return f"{body}\n\n" + "\n".join(lines) if lines else body


def assemble(fragments: list[str], doc: Document) -> dict[str, Any]:
    """The Discourse payload from rendered blocks."""
    limit = doc.caps.max_chars
    listed = list(doc.listed)
    footnote_room = sum(len(definition_body(f)) + 12 for f in listed)
    body_limit = max(limit // 2, limit - footnote_room - 40)
    posts = pack(fragments, body_limit) or ["(empty answer)"]
    raws: list[str] = []
    for index, body in enumerate(posts):
        # footnote references as the writer emits them (answer text that looks like one is escaped)
        referenced = {int(n) for n in CITATION_MARK.findall(body)}
        forms = [f for f in listed if f.n in referenced]
        if index == len(posts) - 1:
            forms = [f for f in listed if f.n in referenced or f.n not in doc.cited]
        raw = _post(body, forms, doc, referenced)
        while len(raw) > limit and forms:
            keep = max(0, len(forms) - max(1, len(forms) // 4))
            more = len(forms) - keep
            forms = forms[:keep]
            url = doc.context.full_list_url()
            note = (
                masked_link(f"and {more} more sources", url, "discourse")
                if url
                else (f"and {more} more sources")
            )
            raw = _post(body, forms, doc, {f.n for f in forms}) + f"\n\n{note}"
        raws.append(raw)
    # one upload entry per citation of a file, since each footnote has its own placeholder; the
    # connector uploads a file once however many entries name it
    uploads = [{**file_entry(f), "placeholder": placeholder(f.n)} for f in doc.attachments]
    payload: dict[str, Any] = {"raw": raws[0], "uploads": uploads}
    if len(raws) > 1:
        payload["continued"] = raws[1:]
    return payload


__all__ = ["assemble", "block_renderer", "escape_text", "placeholder"]
