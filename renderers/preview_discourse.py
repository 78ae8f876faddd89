"""The Discourse post drawn for the preview page, as Discourse would show it once posted.

The preview renders the post's raw markdown itself, so two things the forum does are done here:

- an attached file (``[name|attachment](citecast-upload://n)``, which the connector replaces
  with the ``upload://`` URL Discourse returns) shows as a file link to the citation's signed
  download URL when the render context gives one, else as the file's name marked "attached"
  (a ``citecast-upload://`` URL is no web address: left as it is, the HTML renderer would make
  it ``#harmful-link``);
- a footnote referenced several times gets a distinct id per reference (``fnref-1``,
  ``fnref-1:1`` …, as Discourse's markdown-it does), and each post after the first has its own
  id prefix, so the page's ids stay unique.

Footnotes are numbered as the forum numbers them: 1, 2, … by first reference in each post,
whatever their labels (``[^13]`` first in a continued post shows as [1]; its definition names
the answer's number, see ``renderers.discourse_numbers``), and a footnote's second and later
references show as [1:1], [1:2] …, as markdown-it-footnote draws them (on a forum that turned
``display_footnotes_inline`` off; by default the forum shows a "…" button that opens the note).

The returned HTML is not sanitized; :mod:`renderers.preview` cleans it like every panel.
"""

from __future__ import annotations

import html
import re
from typing import Any

import mistune
from mistune.plugins.table import table_in_list, table_in_quote
from mistune.renderers.html import HTMLRenderer

from bot.models import Answer, is_safe_url
from renderers.base import RenderContext
from renderers.discourse import UPLOAD_SCHEME

_UPLOAD_LINK = re.compile(
    r'<a class="attachment" href="' + re.escape(UPLOAD_SCHEME) + r'([0-9]+)">(.*?)</a>', re.S
)
_FOOTNOTE_ATTR = re.compile(r'\b(id|href)="(#?)(fnref|fn)-([0-9]+)"')
# a reference as _footnote_ref draws it (text from the answer is escaped: only ours match)
_FOOTNOTE_REF = re.compile(
    r'(<sup class="footnote-ref" id="fnref-([0-9]+)"><a href="#fn-\2">\[)\2(\]</a></sup>)'
)


def _footnote_ref(renderer: Any, key: str, index: int) -> str:
    # as Discourse draws a reference: "[1]", so adjacent ones read "[1][2]", not "12"
    return f'<sup class="footnote-ref" id="fnref-{index}"><a href="#fn-{index}">[{index}]</a></sup>'


class _Renderer(HTMLRenderer):
    def link(self, text: str, url: str, title: str | None = None) -> str:
        if url.startswith(UPLOAD_SCHEME):
            # kept for attachment_links(); "|attachment" is Discourse's marker, not the name
            name = text.removesuffix("|attachment")
            return f'<a class="attachment" href="{html.escape(url)}">{name}</a>'
        return super().link(text, url, title)


_MARKDOWN = mistune.create_markdown(
    renderer=_Renderer(escape=True),
    plugins=["table", table_in_list, table_in_quote, "strikethrough", "footnotes"],
)
assert _MARKDOWN.renderer is not None
_MARKDOWN.renderer.register("footnote_ref", _footnote_ref)


def repeated_captions(markup: str) -> str:
    """A footnote's second and later references drawn ``[1:1]``, ``[1:2]`` … as
    markdown-it-footnote draws them (run before :func:`unique_footnote_ids`)."""
    seen: dict[str, int] = {}

    def caption(m: re.Match[str]) -> str:
        index = m.group(2)
        count = seen.get(index, 0)
        seen[index] = count + 1
        return f"{m.group(1)}{index}:{count}{m.group(3)}" if count else m.group(0)

    return _FOOTNOTE_REF.sub(caption, markup)


def unique_footnote_ids(markup: str, post: int) -> str:
    """Footnote ids (and the links to them) made unique on the page: a repeated reference gets
    ``:1``, ``:2`` … after its id, and post ``post`` (0-based) after the first a ``p{post}-``
    prefix. Text from the answer is escaped, so only the renderer's own attributes match."""
    prefix = f"p{post}-" if post else ""
    seen: dict[str, int] = {}

    def rename(m: re.Match[str]) -> str:
        attr, hash_, kind, index = m.groups()
        name = f"{prefix}{kind}-{index}"
        if attr == "id" and kind == "fnref":
            count = seen.get(name, 0)
            seen[name] = count + 1
            if count:
                name += f":{count}"
        return f'{attr}="{hash_}{name}"'

    return _FOOTNOTE_ATTR.sub(rename, markup)


def attachment_links(markup: str, urls: dict[int, str]) -> str:
    """Each upload link in ``markup`` as a file link to ``urls[n]``, or its name marked attached."""

    def draw(m: re.Match[str]) -> str:
        url = urls.get(int(m.group(1)))
        if url is not None:
            return f'<a class="attachment" href="{html.escape(url)}">{m.group(2)}</a>'
        return f'<span class="attachment">{m.group(2)}</span> (attached)'

    return _UPLOAD_LINK.sub(draw, markup)


def download_urls(answer: Answer, context: RenderContext | None) -> dict[int, str]:
    """The signed download URL of each cited source the context's signer gives one for."""
    if context is None or context.signer is None:
        return {}
    urls: dict[int, str] = {}
    for citation in answer.citations:
        url = context.signer(citation.source)
        if url is not None and is_safe_url(url):
            urls[citation.n] = url
    return urls


def discourse_posts(
    payload: dict[str, Any], answer: Answer, context: RenderContext | None
) -> list[str]:
    """Each post of the Discourse ``payload`` as HTML (not yet sanitized)."""
    raws = [payload["raw"], *payload.get("continued", [])]
    urls = download_urls(answer, context) if payload.get("uploads") else {}
    return [
        attachment_links(unique_footnote_ids(repeated_captions(str(_MARKDOWN(raw))), post), urls)
        for post, raw in enumerate(raws)
    ]
