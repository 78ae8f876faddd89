"""The web renderer: sanitized HTML with superscript citation links and a numbered source list.

Payload: ``{"html": str, "citations": [dict, ...]}``. Each citation marker is
``<sup class="citation"><a href="#cite-P-n" title="…" data-n aria-describedby>[n]</a></sup>``
whose title (hover) and ``aria-describedby`` (focus, screen readers) give the title, page or
section and the quote; ``P`` is a short hash of the answer so several answers on one page keep
distinct anchors. Weak citations (support below ``RenderContext.weak_below``) get class ``weak``
and a ``?``. The whole HTML passes nh3 with exactly the tags and attributes below allowed.

A citation whose markers differ (``Citation.occurrences``: another sentence of the passage backs
another marker's claim, or only some are weak) shows the k-th marker in the text with its own
quote in the title, its own link where the marker is a link, its own weakness, and
``data-occurrence="k"`` (1-based, on every marker of such a citation: one past its occurrences
shows the citation) so the page's tooltip can show the k-th quote; the payload's
citation then lists ``occurrences`` (``quote``, ``url``, ``weak``) in the same order. The source
list keeps one entry per source, with the citation's own quote; its links that would read alike
in a screen reader's list of links (every record's action label, the title of two passages of
one document) carry an ``aria-label`` that tells them apart (``renderers.web_link_names``).
"""

from __future__ import annotations

import functools
import hashlib
import html
import re
from collections.abc import Mapping
from typing import Any

import nh3

from bot.markdown import Token, parse
from renderers.base import EMPTY_ANSWER, CitationForm, OccurrenceForm, RenderContext, shown
from renderers.document import Document
from renderers.escaping import html_text, html_url, one_line
from renderers.glue import WORD_JOINER
from renderers.html_writer import HtmlWriter
from renderers.quote_text import quote_html, quote_plain
from renderers.url_encoding import encoded_url
from renderers.web_link_names import action_link_names, title_link_names, titled

CHANNEL = "web"

ALLOWED_TAGS = {
    "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "em", "del", "code", "pre",
    "blockquote", "ul", "ol", "li", "table", "thead", "tbody", "tr", "th", "td", "a", "sup",
    "span", "div", "section",
}  # fmt: skip
# "dir" on every block that reads in the direction of its own text (renderers.html_writer)
ALLOWED_ATTRIBUTES = {
    "a": {
        "href",
        "title",
        "id",
        "class",
        "data-n",
        "data-occurrence",
        "aria-describedby",
        "aria-label",
    },
    "sup": {"class", "id"},
    "ol": {"class", "start", "id", "aria-label", "lang"},
    "li": {"id", "class", "value", "dir"},
    "span": {"class", "id", "role", "dir"},
    # lang: only ever written by assemble() (assistant.language) and on citecast's own notes
    # (renderers.html_writer); raw HTML in answers is text
    "div": {"class", "id", "lang"},
    "section": {"class", "aria-label", "lang"},
    "h2": {"class", "dir"},
    "code": {"class"},
    "p": {"dir", "lang"},
    **{tag: {"dir"} for tag in ("h1", "h3", "h4", "h5", "h6", "th", "td")},
}


# An answer's own "# Install" is an h3, "## Steps" an h4 (deeper ones h5, then h6): never the
# chat's title (h1 on the page, h2 in the widget) nor ranked above the answer's source list
# (h2 on the page, h3 in the widget: sources.js levelBelowTitle). The server renders once for
# both, so the widget's answer headings sit beside its source list and the page's one level
# below it.
ANSWER_TOP_HEADING = 3


def anchor_prefix(seed: str) -> str:
    """A short stable prefix for the answer's anchors (from ``renderers.document.seed``)."""
    return "c" + hashlib.sha1(seed.encode("utf-8"), usedforsecurity=False).hexdigest()[:6]


# built once: nh3.clean() converts the allow-lists on every call
_CLEANER = nh3.Cleaner(
    tags=ALLOWED_TAGS,
    attributes=ALLOWED_ATTRIBUTES,
    url_schemes={"http", "https", "mailto"},
    strip_comments=True,
)


def sanitize(markup: str) -> str:
    """nh3 with the web allow-list; only http/https/mailto (and #fragment) links survive."""
    return str(_CLEANER.clean(markup))


_HREF = re.compile(r'<a href="([^"]*)"')


@functools.lru_cache(maxsize=4096)
def link_target(url: str | None) -> str | None:
    """``url`` as the sanitized HTML links it, or None when it has no link there: the one
    answer both the HTML's ``href`` and the payload's ``url`` (of a citation, an occurrence,
    a record's action) come from, so a client never offers a link the answer does not have.
    It is encoded by the one rule (:func:`renderers.url_encoding.encoded_url`) first.

    nh3 drops an ``href`` it cannot parse as a URL (a port above 65535, a space in the host)
    though ``is_safe_url`` passed it; what nh3 keeps is the URL as written."""
    if not url:
        return None
    url = encoded_url(url)
    found = _HREF.match(sanitize(f'<a href="{html_text(url)}">.</a>'))
    if found is None or html.unescape(found.group(1)) != url:
        return None
    return url


def hover_text(form: CitationForm, occurrence: OccurrenceForm | None = None) -> str:
    """What hovering or focusing a marker shows: title, page/section, quote (plain text); the
    quote and the page are ``occurrence``'s when the marker is one of a citation's differing
    markers (its own page where it is known: "p. 2", not the source list's "pp. 1–2")."""
    parts = [form.title]
    detail = form.detail if occurrence is None else occurrence.detail
    if detail:
        parts.append(detail)
    text = " \u2014 ".join(parts)
    quote = form.quote if occurrence is None else occurrence.quote
    if quote:
        text += f": \u201c{quote_plain(quote)[:300]}\u201d"
    return one_line(text)


class WebBlocks:
    """Block-level step of the web renderer (see renderers.document)."""

    def __init__(
        self,
        forms: Mapping[int, CitationForm],
        prefix: str,
        listed: bool = True,
        language: str = "",
    ):
        self._forms = forms
        self._prefix = prefix
        self._listed = listed  # False under ``show: none``: no source list to point into
        self._writer = HtmlWriter(
            self.cite, forms=forms, top_heading=ANSWER_TOP_HEADING, language=language
        )
        self._cache: dict[tuple[int, int], tuple[CitationForm, str]] = {}
        # how many markers of each number were written: the next one is occurrence count + 1
        # (blocks are written once each, in text order, by render and by a final re-render)
        self._written: dict[int, int] = {}

    def cite(self, n: int) -> str:
        form = self._forms.get(n)
        if form is None:
            return ""
        k = 0
        if form.occurrences:
            # every marker of such a citation says which it is (``assemble`` checks the order)
            k = self._written[n] = self._written.get(n, 0) + 1
        cached = self._cache.get((n, k))
        if cached is not None and cached[0] is form:
            return cached[1]
        occurrence = form.occurrences[k - 1] if 0 < k <= len(form.occurrences) else None
        weak_mark = form.weak if occurrence is None else occurrence.weak
        url = link_target(form.url if occurrence is None else occurrence.url)
        weak = " weak" if weak_mark else ""
        mark = f"[{n}?]" if weak_mark else f"[{n}]"
        anchor = f"cite-{self._prefix}-{n}"
        hover = html_text(hover_text(form, occurrence)) if form.reachable else "restricted source"
        # the k-th marker of a citation whose markers differ, for the page's tooltip
        which = f' data-occurrence="{k}"' if k else ""
        if self._listed:
            link = (
                f'href="#{anchor}" title="{hover}" data-n="{n}"{which} aria-describedby="{anchor}"'
            )
        elif url and form.kind in ("link", "download"):
            # no list to describe it: the marker leads to the source itself
            link = f'href="{html_url(url)}" title="{hover}" data-n="{n}"{which}'
        else:
            link = f'title="{hover}" data-n="{n}"{which}'
        # the joiner holds the number to the word before it (renderers.glue)
        markup = f'<sup class="citation{weak}">{WORD_JOINER}<a {link}>{mark}</a></sup>'
        self._cache[(n, k)] = (form, markup)
        return markup

    def __call__(self, token: Token) -> str:
        return self._writer.block(token)


def _titled_link(form: CitationForm) -> bool:
    return link_target(form.url) is not None


def _action_link(form: CitationForm) -> bool:
    action = form.record.action if form.record else None
    return action is not None and link_target(action.url) is not None


def _named(name: str | None) -> str:
    """The ``aria-label`` attribute of a link (renderers.web_link_names), or nothing."""
    return f' aria-label="{html_text(name)}"' if name else ""


def _source_item(
    form: CitationForm, prefix: str, title_name: str | None, action_name: str | None
) -> str:
    title = html_text(form.title)
    url = link_target(form.url)
    if titled(form) and url:
        cls = "source-link" if form.kind == "link" else "download"
        head = f'<a class="{cls}" href="{html_url(url)}"{_named(title_name)}>{title}</a>'
        if form.kind == "download" and form.filename and form.filename != form.title:
            head += f' <span class="filename">({html_text(form.filename)})</span>'
    else:
        head = f'<span class="source-name">{title}</span>'
        if form.filename and form.filename != form.title:
            # the name to look the file up by, as every other channel shows it
            head += f' <span class="filename">({html_text(form.filename)})</span>'
    parts = [head]
    if form.detail:
        parts.append(f'<span class="detail">{html_text(form.detail)}</span>')
    if form.record:
        if form.record.columns:
            cols = "; ".join(
                f"{html_text(name)}: {html_text(value)}" for name, value in form.record.columns
            )
            parts.append(f'<span class="record-columns">{cols}</span>')
        action = form.record.action
        if action and link_target(action.url):
            parts.append(
                f'<a class="button action" href="{html_url(action.url)}"{_named(action_name)}>'
                f"{html_text(action.label)}</a>"
            )
    if form.quote:
        # the passage may be in another script than the title before it
        parts.append(f'<span class="quote" dir="auto">\u201c{quote_html(form.quote)}\u201d</span>')
    if form.weak:
        parts.append('<span class="weak-note">(weak support?)</span>')
    entry = f'id="cite-{prefix}-{form.n}" value="{form.n}"' + (' class="weak"' if form.weak else "")
    return f'<li {entry} dir="auto">{" ".join(parts)}</li>'


def citation_json(form: CitationForm, doc: Document) -> dict[str, Any]:
    """The JSON-able description of one citation for the web client."""
    citation = doc.answer.citation(form.n)
    out: dict[str, Any] = {"n": form.n, "title": form.title, "form": form.kind}
    url = link_target(form.url)
    if url:
        out["url"] = url
    if citation is not None and form.reachable:
        source = citation.source
        for key, value in (("page", source.page), ("page_end", source.page_end),
                           ("section", source.section and shown(source.section)),
                           ("filename", form.filename)):  # fmt: skip
            if value is not None:
                out[key] = value
        if form.quote:
            out["quote"] = form.quote
        if citation.support is not None:
            out["support"] = citation.support
        if form.occurrences:
            out["occurrences"] = [_occurrence_json(o) for o in form.occurrences]
    if form.weak:
        out["weak"] = True
    if form.record:
        out["record"] = {
            "label": form.record.label,
            "columns": dict(form.record.columns),
            **({"action": {"label": form.record.action.label, "url": form.record.action.url}}
               if form.record.action and link_target(form.record.action.url) else {}),
        }  # fmt: skip
    return out


def _occurrence_json(occurrence: OccurrenceForm) -> dict[str, Any]:
    """One marker's entry in a citation's ``occurrences`` (``data-occurrence`` k is entry k)."""
    out: dict[str, Any] = {}
    if occurrence.quote:
        out["quote"] = occurrence.quote
    url = link_target(occurrence.url)
    if url:
        out["url"] = url
    if occurrence.weak:
        out["weak"] = True
    return out


_OCCURRENCE_RE = re.compile(r'data-n="(\d+)" data-occurrence="(\d+)"')


def _markers_in_order(fragments: list[str]) -> bool:
    """Whether each citation's markers are numbered 1, 2, 3… in the order they show."""
    written: dict[str, int] = {}
    for n, k in _OCCURRENCE_RE.findall("".join(fragments)):
        written[n] = written.get(n, 0) + 1
        if int(k) != written[n]:
            return False
    return True


def assemble(fragments: list[str], doc: Document) -> dict[str, Any]:
    """The web payload from rendered blocks."""
    prefix = anchor_prefix(doc.seed)
    listed = doc.listed
    if any(form.occurrences for form in doc.forms.values()) and not _markers_in_order(fragments):
        # A streamed answer's open paragraph was drawn again at every edit, each time counting
        # its markers on: draw the answer once more, in order, for each its own quote.
        step = WebBlocks(
            doc.forms, prefix, listed=doc.context.show != "none", language=doc.context.language
        )
        fragments = [step(token) for token in parse(doc.answer.text)]
    # an answer with nothing to show says so, as every chat channel does, not an empty bubble
    body = "\n".join(f for f in fragments if f) or f'<p dir="auto">{EMPTY_ANSWER}</p>'
    sources = ""
    # the answer and its sources in their language, the chat's own words ("Sources") in English
    language = doc.context.language
    lang, chat_lang = (f' lang="{language}"', ' lang="en"') if language else ("", "")
    if listed:
        entries = doc.quoted_entries
        # links that would read alike in a screen reader's list of links are named apart
        title_names = title_link_names(entries, _titled_link)
        action_names = action_link_names(entries, _action_link)
        items = "\n".join(
            _source_item(form, prefix, title_names.get(form.n), action_names.get(form.n))
            for form in entries
        )
        sources = (
            f'<section class="sources" aria-label="Sources"{chat_lang}>'
            f'<h2 class="sources-title">Sources</h2>'
            f'<ol class="sources" id="sources-{prefix}"{lang}>\n{items}\n</ol></section>'
        )
    # no dir on the whole answer: each block has its own (dir="auto"), so an English answer
    # that opens with an Arabic quote reads left to right after it, in the chat and in email
    markup = f'<div class="answer" id="answer-{prefix}"{lang}>{body}\n{sources}</div>'
    return {"html": sanitize(markup), "citations": [citation_json(f, doc) for f in listed]}


def block_renderer(
    forms: Mapping[int, CitationForm], context: RenderContext, seed: str
) -> WebBlocks:
    """The block step for an answer whose anchors derive from ``seed``."""
    return WebBlocks(
        forms, anchor_prefix(seed), listed=context.show != "none", language=context.language
    )
