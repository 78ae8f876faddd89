"""Tree walker from the mistune AST to HTML, shared by the web and email renderers.

Raw HTML in the answer is shown as text. Links keep only http/https/mailto URLs (others show
their text); a link whose text reads as another address shows that text, then a link written
as its own address (``renderers.link_urls``). Images become links (no remote image is ever
loaded). The caller supplies how a citation is written (``cite``) and optional inline
``styles`` per tag (email).

An answer's headings are written from ``top_heading`` down: the web chat passes 3, since its
answers sit below the chat's own title and each answer's source-list heading
(``renderers.web``); email's answer is a document of its own and keeps ``#`` as ``h1``. A level
past ``h6`` stays ``h6``.

Each paragraph, heading, list item and table cell carries ``dir="auto"``: it reads in the
direction of its own first letter, so an English answer that opens with an Arabic quote stays
left to right after it. The answer as a whole carries no direction, and code keeps the page's
direction (left to right). Mail clients honour ``dir`` but often ignore ``unicode-bidi``.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping

from bot.markdown import Token, html_block_pieces, plain_text
from bot.own_notes import OWN_LANGUAGE, is_own_note
from renderers.base import CitationForm
from renderers.document import (
    cell_tokens,
    cited_numbers,
    list_shows_text,
    shows_text,
    table_rows,
    without_citations,
)
from renderers.escaping import html_text, html_url, outside_urls, safe_url, visible
from renderers.glue import glued, spaced_mark
from renderers.link_urls import label_hides_target, link_url

# every element the writer opens without attributes of its own
_PLAIN_TAGS = (
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "hr", "ul", "ol", "li",
    "table", "thead", "tbody", "tr", "th", "td", "em", "strong", "del", "code",
)  # fmt: skip

# blocks that read in the direction of their own first letter; not pre (code stays left to
# right), nor ul, ol, table and blockquote: dir="auto" skips children with a dir of their own,
# so on a container of such blocks it would find no letter to decide by
_DIRECTED_TAGS = frozenset({"p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "th", "td"})
_AUTO_DIR = ' dir="auto"'
_OWN_LANG = f' lang="{OWN_LANGUAGE}"'

# inline tokens written as one element around their children
_INLINE_TAGS = {"emphasis": "em", "strong": "strong", "strikethrough": "del"}


def _opening(tag: str, attrs: str, style: str | None) -> str:
    direction = _AUTO_DIR if tag in _DIRECTED_TAGS else ""
    style_attr = f' style="{style}"' if style else ""
    return f"<{tag}{direction}{attrs}{style_attr}>"


class HtmlWriter:
    """Render block tokens to HTML strings."""

    def __init__(
        self,
        cite: Callable[[int], str],
        styles: Mapping[str, str] | None = None,
        forms: Mapping[int, CitationForm] | None = None,
        top_heading: int = 1,
        language: str = "",
    ):
        """``forms``: the answer's citation forms, which a link labelled like a citation must
        lead to (:func:`renderers.link_urls.link_url`); read at each link, so a streamed
        answer's forms may grow in place. ``top_heading``: the level (1–6) of an answer's ``#``
        heading; ``##`` is one below it, and so on. ``language``: the answer's
        (``RenderContext.language``); when it is set and not English, a note in citecast's own
        words (:mod:`bot.own_notes`) is marked English."""
        self._cite = cite
        # how many levels an answer's heading is written below its Markdown level
        self._heading_shift = min(6, max(1, top_heading)) - 1
        self._styles = styles or {}
        self._forms = forms
        primary = language.split("-")[0].lower()
        self._own_notes = bool(primary) and primary != OWN_LANGUAGE
        # built once per writer rather than once per element: the walk is the hot path
        self._tags = {tag: _opening(tag, "", self._styles.get(tag)) for tag in _PLAIN_TAGS}

    def _open(self, tag: str, attrs: str) -> str:
        """An opening tag with ``attrs`` (and the tag's style)."""
        return _opening(tag, attrs, self._styles.get(tag))

    def block(self, token: Token) -> str:
        """One block token as HTML."""
        kind = token["type"]
        children = token.get("children") or []
        if kind == "paragraph" or kind == "block_text":
            inner = self.inline(children)
            if kind == "block_text":
                return inner
            if not visible(inner):
                return ""
            if self._own_notes and len(children) == 1 and is_own_note(plain_text(children)):
                # citecast's own words in an answer of another language (bot.own_notes)
                return f"{self._open('p', _OWN_LANG)}{inner}</p>"
            return f"{self._tags['p']}{inner}</p>"
        if kind == "heading":
            level = min(6, max(1, int(token["attrs"]["level"])) + self._heading_shift)
            inner = self.inline(children)
            return f"{self._tags[f'h{level}']}{inner}</h{level}>" if visible(inner) else ""
        if kind == "list":
            return self._list(token)
        if kind == "block_quote":
            inner = "".join(self.block(c) for c in children)
            return f"{self._tags['blockquote']}{inner}</blockquote>" if inner else ""
        if kind == "block_code":
            if not visible(str(token.get("raw", ""))):
                return ""
            info = str((token.get("attrs") or {}).get("info") or "").split(" ")[0]
            lang = f' class="language-{html_text(info)}"' if info.isalnum() else ""
            code = html_text(str(token.get("raw", "")))
            return f"{self._tags['pre']}<code{lang}>{code}</code></pre>"
        if kind == "thematic_break":
            return self._tags["hr"]
        if kind == "table":
            return self._table(token)
        if kind == "block_html":
            return f"{self._tags['p']}{self.inline(html_block_pieces(token))}</p>"
        if "children" in token:
            return "".join(self.block(c) for c in children)
        return html_text(str(token.get("raw", "")))

    def _list(self, token: Token) -> str:
        if not list_shows_text(token):
            return ""
        attrs = token.get("attrs") or {}
        tag = "ol" if attrs.get("ordered") else "ul"
        start = attrs.get("start")
        start_attr = f' start="{int(start)}"' if tag == "ol" and start not in (None, 1) else ""
        items = []
        for item in token.get("children") or []:
            inner = "".join(self.block(c) for c in item.get("children") or [])
            if inner or tag == "ol":  # an empty bullet shows nothing; a number still counts
                items.append(f"{self._tags['li']}{inner}</li>")
        if not items:
            return ""
        return f"{self._open(tag, start_attr)}{''.join(items)}</{tag}>"

    def _table(self, token: Token) -> str:
        rows: list[str] = []
        if not shows_text(table_rows(token)):
            return ""
        for part in token.get("children") or []:
            if part["type"] == "table_head":
                cells = self._cells(part.get("children") or [], "th")
                rows.append(f"{self._tags['thead']}{self._tags['tr']}{cells}</tr></thead>")
            else:
                body = "".join(
                    f"{self._tags['tr']}{self._cells(row.get('children') or [], 'td')}</tr>"
                    for row in part.get("children") or []
                )
                rows.append(f"{self._tags['tbody']}{body}</tbody>")
        return f"{self._tags['table']}{''.join(rows)}</table>"

    def _cells(self, cells: list[Token], tag: str) -> str:
        return "".join(
            f"{self._tags[tag]}{self.inline(cell_tokens(c.get('children') or []))}</{tag}>"
            for c in cells
        )

    def inline(self, tokens: list[Token], in_link: bool = False) -> str:
        """Inline tokens as HTML; bare URLs and e-mail addresses in text become links, as every
        chat platform makes them (not inside a link: links do not nest)."""
        out: list[str] = []
        for i, token in enumerate(tokens):
            kind = token["type"]
            if kind == "text":
                text = html.unescape(str(token.get("raw", "")))
                if not in_link and ("://" in text or "www." in text or "@" in text):
                    out.append(outside_urls(text, html_text, self._bare_link))
                else:
                    out.append(html_text(text))
            elif kind == "citation":
                mark = self._cite(int(token["attrs"]["n"]))
                if mark and spaced_mark(tokens, i, markup=True):
                    out[-1] = glued(out[-1], "")  # the superscript sits right after the word
                out.append(mark)
            elif kind in _INLINE_TAGS:
                tag = _INLINE_TAGS[kind]
                out.append(f"{self._tags[tag]}{self.inline(token['children'], in_link)}</{tag}>")
            elif kind == "codespan":
                code = html_text(str(token.get("raw", "")))
                out.append(f"{self._tags['code']}{code}</code>" if visible(code) else code)
            elif kind in ("link", "image"):
                out.append(self._link(token))
            elif kind == "softbreak":
                out.append("\n")
            elif kind == "linebreak":
                out.append("<br>")
            elif kind == "inline_html":
                out.append(html_text(str(token.get("raw", ""))))
            elif token.get("children"):
                out.append(self.inline(token["children"], in_link))
            else:
                out.append(html_text(str(token.get("raw", ""))))
        return "".join(out)

    def _bare_link(self, shown: str) -> str:
        """A bare URL or e-mail address as a link (only http, https and mailto)."""
        if "://" in shown or shown.lower().startswith("mailto:"):
            url = shown
        elif shown.lower().startswith("www."):
            url = "https://" + shown
        elif "@" in shown:
            url = "mailto:" + shown
        else:
            return html_text(shown)
        if safe_url(url) is None:
            return html_text(shown)
        href = f' href="{html_url(url)}"'
        return f"{self._open('a', href)}{html_text(shown)}</a>"

    def _link(self, token: Token) -> str:
        attrs = token.get("attrs") or {}
        children = token.get("children") or []
        cited = cited_numbers(children)
        if cited:  # links do not nest: the citations follow the link
            children = without_citations(children)
        after = "".join(self._cite(n) for n in cited)
        text = self.inline(children, in_link=True)
        if cited:
            text = text.rstrip()  # "[the guide [^1]](url)": no space left inside the link
        url = link_url(token, self._forms)
        if not text.strip():
            # nothing would show (a label that was only citations: "[[^1]](url)"), and an empty
            # link can be neither seen nor named by a screen reader: its address shows instead
            text = "image" if token["type"] == "image" else html_text(url or "")
        if url is None:
            return text + after
        title = attrs.get("title")
        title_attr = f' title="{html_text(str(title))}"' if title else ""
        href = f' href="{html_url(url)}"{title_attr}'
        if label_hides_target(token, url):
            # its label shown as text, then where it really leads (renderers.link_urls)
            return f"{text} ({self._open('a', href)}{html_text(url)}</a>){after}"
        return f"{self._open('a', href)}{text}</a>{after}"
