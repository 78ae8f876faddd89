"""The reading page ``/files/{token}`` shows for a cited Markdown, plain-text or HTML file.

Sent as it is, such a file is no use to the person who clicked its citation: HTML is never
served inline (it would run on this origin), so it downloads, and Markdown shows as raw text.
The viewer shows it readable instead, so a text fragment in the link (``#:~:text=``, see
:func:`bot.deeplinks.file_link`) scrolls the browser to the cited passage and highlights it:

- Markdown is rendered from the tree of :func:`bot.markdown.parse` (the project's one mistune
  setup) by mistune's HTML renderer, its headings given GitHub's ids
  (:mod:`bot.connectors.web_viewer_headings`), then sanitized like HTML;
- HTML is sanitized with nh3: only ammonia's inert tags and attributes remain (no script, style,
  iframe, form, meta, base, event handler or ``style`` attribute; ``id`` stays, for fragments),
  links keep only http, https and mailto targets, and an image becomes its alt text (an image
  without alt text is dropped);
- plain text goes in a ``<pre>``, escaped.

A relative link in the document (``[see setup](setup.md)``) would resolve against ``/files/``
and 404: it is given to a :data:`LinkTarget` (:class:`bot.connectors.web_viewer_links.ViewerLinks`),
which names the ``/files/`` link of the file it points at, or none, and then the link is text.
An image is never served from the knowledge base (ingest indexes no image), and a remote one
would tell a third party who reads what, so an ``<img>`` is replaced by its alt text in a
``<span class="cc-img-alt">`` (the browser's broken-image icon would stand for an image that is
never coming). The "[image: …]" around it is the stylesheet's generated content, which a text
fragment does not match: ingest indexes ``![a diagram](a.png)`` as "a diagram", and a quote that
runs across it still finds its place. The page says
its language (:mod:`bot.connectors.web_viewer_lang`) for screen readers, and its direction:
an HTML file's own (``<html dir="rtl">``), else each Markdown or text block reads in the
direction of its first letter (:mod:`bot.connectors.web_viewer_directions`).

The page's CSP is the second wall: no script at all, no connections, the one stylesheet allowed
by its hash, no images (the page shows none, and has no icon), and ``sandbox`` (an opaque
origin, no scripts, no forms, no popups; downloads allowed for the page's own "Download the
file" link, which fetches the file's bytes with ``?download=1``). Only the first
:data:`MAX_VIEW_BYTES` of a file are shown (memory stays bounded), with a note saying how much
of how large a file that is, and that a cited passage further on is not on the page: the link
names no place in the file the server could see (a text fragment never leaves the browser, and
the signed token names the file only), so the page cannot show the part that holds it.
"""

from __future__ import annotations

import base64
import codecs
import hashlib
import html
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import mistune
import nh3
from mistune.core import BlockState

from bot.bidi_controls import without_bidi_controls
from bot.connectors.web_viewer_directions import has_right_to_left, with_block_directions
from bot.connectors.web_viewer_headings import with_heading_ids
from bot.connectors.web_viewer_lang import (
    VIEWER_LANG,
    clean_direction,
    document_direction,
    document_language,
)
from bot.connectors.web_viewer_marks import (
    FOOTNOTE_CSS,
    footnote_definitions_as_text,
    with_marks_apart,
)
from bot.knowledge.document import Unreadable
from bot.knowledge.encoding import text_codec
from bot.knowledge.front_matter import split_front_matter
from bot.markdown import parse

LinkTarget = Callable[[str], str | None]
"""Maps a relative ``href`` of the viewed document to its new target, or None (no link)."""

MAX_VIEW_BYTES = 2 * 1024 * 1024
_KINDS = {
    "text/markdown": "markdown",
    "text/x-markdown": "markdown",
    "text/plain": "text",
    "text/html": "html",
    "application/xhtml+xml": "html",
}
# Elements dropped with everything inside them (the rest of a disallowed element is unwrapped:
# its text stays). A <title> would otherwise print the document's title into its body.
_DROPPED_WITH_CONTENT = {"script", "style", "title", "noscript", "template", "textarea", "select"}
_TAGS = set(nh3.ALLOWED_TAGS) - {"area", "map"}
_URL_SCHEMES = {"http", "https", "mailto"}
# ``id`` too, so a link's #fragment (on this page, or from another viewed file) finds its place:
# ammonia drops it against DOM clobbering, which takes a script, and this page runs none.
# ``dir`` too (ltr, rtl or auto only: _attribute_filter), so right-to-left text reads so.
_ATTRIBUTES = {**nh3.ALLOWED_ATTRIBUTES, "*": {"id", "lang", "title", "dir"}}
_CSS = """\
:root { color-scheme: light dark; }
body { margin: 0; font: 16px/1.55 system-ui, sans-serif; }
.cc-bar { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: baseline;
  padding: .6rem 1rem; border-bottom: 1px solid #8886; }
.cc-name { font-weight: 600; overflow-wrap: anywhere; }
.cc-note { margin: 1rem; padding: .5rem 1rem; border: 1px solid #b80; }
.cc-doc { max-width: 48rem; margin: 0 auto; padding: 1rem; overflow-wrap: break-word; }
.cc-doc pre { white-space: pre-wrap; }
.cc-img-alt { font-style: italic; }
.cc-img-alt::before { content: "[image: "; }
.cc-img-alt::after { content: "]"; }
.cc-doc table { border-collapse: collapse; }
.cc-doc th, .cc-doc td { border: 1px solid #8886; padding: .2rem .5rem; }
"""
_CSS += FOOTNOTE_CSS
_CSS_HASH = base64.b64encode(hashlib.sha256(_CSS.encode("utf-8")).digest()).decode("ascii")

VIEWER_CSP = (
    "default-src 'none'; "
    f"style-src 'sha256-{_CSS_HASH}'; "
    "img-src 'none'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'; "
    "sandbox allow-downloads"
)
"""The viewer page's Content-Security-Policy (its stylesheet is allowed by hash, nothing else)."""

# nh3 is the one judge of a link: mistune would turn a file: or javascript: link into a link to
# "#harmful-link" on this page, where nh3 removes the href and leaves the text, as for HTML.
_HTML_RENDERER = mistune.HTMLRenderer(escape=False, allow_harmful_protocols=True)
# Built only so the plugins register their renderers (tables, strikethrough) on _HTML_RENDERER;
# parsing is bot.markdown's, so a document reads exactly as every other Markdown in citecast.
mistune.create_markdown(renderer=_HTML_RENDERER, plugins=["table", "strikethrough"])


def _render_citation(renderer: object, n: int) -> str:
    # A "[^n]" in a document is its own text: shown as written, not as a citation.
    return f"[^{n}]"


_HTML_RENDERER.register("citation", _render_citation)


@dataclass(frozen=True)
class ViewedFile:
    """What the viewer shows of one file: its text (decoded, possibly cut) and how to read it."""

    filename: str
    kind: str
    text: str
    truncated: bool
    size: int | None = None  # the whole file's bytes, when known (a cut file's note names it)
    # when the file was last changed, when known: with its path and size, the version of the
    # file whose rendering bot.connectors.web_viewer_renders keeps
    mtime_ns: int | None = None


def viewer_kind(media_type: str) -> str | None:
    """``"markdown"``, ``"text"`` or ``"html"`` when the viewer shows ``media_type``, else None."""
    return _KINDS.get(media_type.split(";", 1)[0].strip().lower())


def read_for_view(path: Path, filename: str, kind: str, limit: int = MAX_VIEW_BYTES) -> ViewedFile:
    """The first ``limit`` bytes of the file at ``path``, decoded as the index reads them (a
    byte-order mark's UTF-16 or UTF-32, a page's declared charset, else UTF-8; bad bytes
    replaced), so the page shows the text a citation quotes.

    A cut file ends at its last complete line, so no half character or half tag is shown.
    """
    with path.open("rb") as handle:
        found = os.fstat(handle.fileno())
        data = handle.read(limit + 1)
    return view_of(data, found, filename, kind, limit)


def view_of(
    data: bytes, found: os.stat_result, filename: str, kind: str, limit: int = MAX_VIEW_BYTES
) -> ViewedFile:
    """:func:`read_for_view` of bytes already read (its first ``limit + 1`` or all of them),
    from the file ``found`` describes."""
    size = found.st_size
    truncated = len(data) > limit
    data = data[:limit]
    codec = text_codec(data, html=kind == "html")
    # incremental: a character the limit cut in two is left out, not replaced
    text = codecs.getincrementaldecoder(codec)(errors="replace").decode(data, final=not truncated)
    if truncated:
        cut = text.rfind("\n")
        text = text[: cut + 1] if cut > 0 else text
    text = text.removeprefix("\ufeff")
    return ViewedFile(filename, kind, text, truncated, max(size, len(data)), found.st_mtime_ns)


def _no_link(href: str) -> str | None:
    return None


def _is_relative(href: str) -> bool:
    """True for an ``href`` the browser would resolve against the page's own path (also ``""``,
    ``?query`` and ``/absolute``), not for ``#fragment``, ``scheme:`` or ``//host``."""
    if href.startswith("#"):
        return False  # a place on this page
    try:
        parts = urlsplit(href)
    except ValueError:
        return True  # unparsable: not kept as it is
    return not parts.scheme and not parts.netloc


def _attribute_filter(links: LinkTarget) -> Callable[[str, str, str], str | None]:
    def keep(element: str, attribute: str, value: str) -> str | None:
        # Runs after nh3's own URL check: what it passes through has an allowed scheme.
        if element == "img" and attribute == "src":
            return None  # nothing to load: see the module's docstring
        if attribute == "dir":
            # <bdo dir="rtl"> shows text reversed, the markup form of the U+202E override the
            # viewer strips from text ("moc.knab//:sptth" read as a bank's address)
            return None if element == "bdo" else clean_direction(value)
        if element == "a" and attribute == "href" and _is_relative(value):
            return links(value)
        return value

    return keep


# An <img> as nh3 writes it: every attribute value double-quoted, with '"', "<" and ">" escaped.
_IMG = re.compile(r'<img((?:\s+[\w:-]+(?:="[^"<>]*")?)*)\s*/?>')
_ALT = re.compile(r'\salt="([^"]*)"')


def _image_as_alt_text(image: re.Match[str]) -> str:
    alt = _ALT.search(image.group(1))
    text = html.unescape(alt.group(1)).strip() if alt else ""
    return f'<span class="cc-img-alt">{html.escape(text)}</span>' if text else ""


def sanitize(markup: str, links: LinkTarget = _no_link) -> str:
    """``markup`` with everything that could run, load from elsewhere or navigate by itself
    removed (scripts, handlers, frames, forms, meta, base, styles, ``javascript:`` links);
    relative links go where ``links`` says, or nowhere; an image is its alt text, or nothing."""
    cleaned = nh3.clean(
        markup,
        tags=_TAGS,
        attributes=_ATTRIBUTES,
        clean_content_tags=_DROPPED_WITH_CONTENT,
        url_schemes=_URL_SCHEMES,
        attribute_filter=_attribute_filter(links),
        link_rel="noopener noreferrer nofollow",
        strip_comments=True,
    )
    # nh3 can only drop an element or keep it: the image becomes its alt text on its output
    return _IMG.sub(_image_as_alt_text, cleaned)


def _one_line(text: str | None) -> str:
    """``text`` as a tab shows it: one line, no bidi controls (a tab is no place for them)."""
    return " ".join(without_bidi_controls(text or "").split())


def document_markup(viewed: ViewedFile) -> str:
    """The document's body before sanitizing, its front matter left out: Markdown rendered to
    HTML (headings given ids), HTML as it is, plain text escaped in a ``<pre>``.

    Markdown is the costly kind (mistune takes seconds on some 2 MB files): the web channel
    renders it off the event loop, once per file version
    (:class:`bot.connectors.web_viewer_renders.ViewerRenders`)."""
    if viewed.kind == "markdown":
        body = footnote_definitions_as_text(_body(viewed.text))
        return with_heading_ids(str(_HTML_RENDERER(parse(body), BlockState())))
    # ingest reads front matter in HTML and text files too (a reStructuredText title between
    # "---" lines is text there), and neither shows it
    body = _body(viewed.text, scalar_is_body=True)
    if viewed.kind == "html":
        return body
    # a text file is prose, not code: it reads in the direction of its first letter
    direction = ' dir="auto"' if has_right_to_left(body) else ""
    return f"<pre{direction}>{html.escape(body)}</pre>"


def _body(text: str, *, scalar_is_body: bool = False) -> str:
    """A file's text without its front matter: metadata, not text. Found as ingest finds it
    (a block after blank lines or a JSON object too, when it names an audience); a block
    ingest cannot read (such a file is not indexed, but a ``web.file_roots`` file is served
    on its link alone) is shown as it is."""
    try:
        return split_front_matter(text, scalar_is_body=scalar_is_body)[1]
    except Unreadable:
        return text


def render_document(
    viewed: ViewedFile, links: LinkTarget = _no_link, markup: str | None = None
) -> str:
    """The document's body as safe HTML (relative links as ``links`` says); ``markup`` is its
    :func:`document_markup` when already made."""
    body = document_markup(viewed) if markup is None else markup
    if viewed.kind == "text":
        return body
    safe = sanitize(body, links)
    if viewed.kind != "markdown":
        return safe
    # the page's sentences read as the index quotes them (bot.connectors.web_viewer_marks)
    mdx = viewed.filename.lower().endswith(".mdx")
    return with_block_directions(with_marks_apart(safe, mdx=mdx))


def _megabytes(count: int) -> str:
    """``2 MB``, ``14.5 MB``: a byte count as the note says it."""
    return f"{count / (1024 * 1024):.1f}".removesuffix(".0") + " MB"


def _cut_note(viewed: ViewedFile, limit: int) -> str:
    """What a cut file's page says: how much of the file it shows, and that a citation's
    passage beyond that is not here, so the link did not scroll to it (else the reader is left
    at the top of the page, wondering where the quote went)."""
    shown = _megabytes(limit)
    if viewed.size is not None and viewed.size > limit:
        whole = (
            f"This file is {_megabytes(viewed.size)}, larger than {shown}: only its beginning is"
            f" shown here, its first {shown}."
        )
    else:
        whole = f"This file is larger than {shown}: only its beginning is shown here."
    return (
        f"{whole} A cited passage further on is not on this page, so the link cannot take you"
        " to it: download the file to read all of it."
    )


def viewer_page(
    viewed: ViewedFile,
    limit: int = MAX_VIEW_BYTES,
    *,
    links: LinkTarget = _no_link,
    title: str | None = None,
    markup: str | None = None,
    language: str = "",
) -> str:
    """The whole reading page for ``viewed``, with a link to download the file itself.

    ``links`` gives the document's relative links their targets; by default they have none.
    ``title`` (the document's title, as the index has it) names the browser tab; without one,
    the file name does. The bar above the document always names the file the link downloads.
    ``markup`` is the document's :func:`document_markup` when already made (a kept render).
    ``language`` (``assistant.language``, the knowledge base's language) is the document's when
    the file declares none itself, as the chat marks the answers that cite it."""
    name = html.escape(viewed.filename)
    tab = html.escape(_one_line(title) or viewed.filename)
    lang = document_language(viewed.kind, viewed.text) or language
    doc_lang = f' lang="{html.escape(lang)}"' if lang and lang != VIEWER_LANG else ""
    direction = document_direction(viewed.kind, viewed.text)
    doc_dir = f' dir="{direction}"' if direction else ""
    body = render_document(viewed, links, markup)
    note = (
        f'<p class="cc-note" role="note">{_cut_note(viewed, limit)}</p>' if viewed.truncated else ""
    )
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{VIEWER_LANG}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        f"<title>{tab}</title><style>{_CSS}</style></head>\n"
        f'<body><header class="cc-bar"><span class="cc-name">{name}</span>'
        '<a href="?download=1">Download the file</a></header>\n'
        f'{note}<main class="cc-doc"{doc_lang}{doc_dir}>\n{body}\n</main>'
        "</body></html>\n"
    )
