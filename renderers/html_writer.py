"""Tree walker from the mistune AST to HTML, shared by the web and email renderers.

Raw HTML in the answer is shown as text. Links keep only http/https/mailto URLs (others show
their text). Images become links (no remote image is ever loaded). The caller supplies how a
citation is written (``cite``) and optional inline ``styles`` per tag (email).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping

from bot.markdown import Token, plain_text
from renderers.escaping import html_text, safe_url, visible


class HtmlWriter:
    """Render block tokens to HTML strings."""

    def __init__(self, cite: Callable[[int], str], styles: Mapping[str, str] | None = None):
        self._cite = cite
        self._styles = styles or {}

    def _open(self, tag: str, attrs: str = "") -> str:
        style = self._styles.get(tag)
        style_attr = f' style="{style}"' if style else ""
        return f"<{tag}{attrs}{style_attr}>"

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
            return f"{self._open('p')}{inner}</p>"
        if kind == "heading":
            level = min(6, max(1, int(token["attrs"]["level"])))
            inner = self.inline(children)
            return f"{self._open(f'h{level}')}{inner}</h{level}>" if visible(inner) else ""
        if kind == "list":
            return self._list(token)
        if kind == "block_quote":
            inner = "".join(self.block(c) for c in children)
            return f"{self._open('blockquote')}{inner}</blockquote>" if inner else ""
        if kind == "block_code":
            if not visible(str(token.get("raw", ""))):
                return ""
            info = str((token.get("attrs") or {}).get("info") or "").split(" ")[0]
            lang = f' class="language-{html_text(info)}"' if info.isalnum() else ""
            code = html_text(str(token.get("raw", "")))
            return f"{self._open('pre')}<code{lang}>{code}</code></pre>"
        if kind == "thematic_break":
            return self._open("hr")
        if kind == "table":
            return self._table(token)
        if kind == "block_html":
            return f"{self._open('p')}{html_text(str(token.get('raw', '')).strip())}</p>"
        if "children" in token:
            return "".join(self.block(c) for c in children)
        return html_text(str(token.get("raw", "")))

    def _list(self, token: Token) -> str:
        attrs = token.get("attrs") or {}
        tag = "ol" if attrs.get("ordered") else "ul"
        start = attrs.get("start")
        start_attr = f' start="{int(start)}"' if tag == "ol" and start not in (None, 1) else ""
        items = []
        for item in token.get("children") or []:
            inner = "".join(self.block(c) for c in item.get("children") or [])
            if inner or tag == "ol":  # an empty bullet shows nothing; a number still counts
                items.append(f"{self._open('li')}{inner}</li>")
        if not items:
            return ""
        return f"{self._open(tag, start_attr)}{''.join(items)}</{tag}>"

    def _table(self, token: Token) -> str:
        rows: list[str] = []
        if not visible(plain_text(token.get("children") or [])):
            return ""
        for part in token.get("children") or []:
            if part["type"] == "table_head":
                cells = self._cells(part.get("children") or [], "th")
                rows.append(f"{self._open('thead')}{self._open('tr')}{cells}</tr></thead>")
            else:
                body = "".join(
                    f"{self._open('tr')}{self._cells(row.get('children') or [], 'td')}</tr>"
                    for row in part.get("children") or []
                )
                rows.append(f"{self._open('tbody')}{body}</tbody>")
        return f"{self._open('table')}{''.join(rows)}</table>"

    def _cells(self, cells: list[Token], tag: str) -> str:
        return "".join(
            f"{self._open(tag)}{self.inline(c.get('children') or [])}</{tag}>" for c in cells
        )

    def inline(self, tokens: list[Token]) -> str:
        """Inline tokens as HTML."""
        out: list[str] = []
        for token in tokens:
            kind = token["type"]
            children = token.get("children") or []
            if kind == "text":
                out.append(html_text(html.unescape(str(token.get("raw", "")))))
            elif kind == "citation":
                out.append(self._cite(int(token["attrs"]["n"])))
            elif kind == "emphasis":
                out.append(f"{self._open('em')}{self.inline(children)}</em>")
            elif kind == "strong":
                out.append(f"{self._open('strong')}{self.inline(children)}</strong>")
            elif kind == "strikethrough":
                out.append(f"{self._open('del')}{self.inline(children)}</del>")
            elif kind == "codespan":
                code = html_text(str(token.get("raw", "")))
                out.append(f"{self._open('code')}{code}</code>" if visible(code) else code)
            elif kind in ("link", "image"):
                out.append(self._link(token))
            elif kind == "softbreak":
                out.append("\n")
            elif kind == "linebreak":
                out.append("<br>")
            elif kind == "inline_html":
                out.append(html_text(str(token.get("raw", ""))))
            elif children:
                out.append(self.inline(children))
            else:
                out.append(html_text(str(token.get("raw", ""))))
        return "".join(out)

    def _link(self, token: Token) -> str:
        attrs = token.get("attrs") or {}
        text = self.inline(token.get("children") or [])
        if token["type"] == "image" and not text:
            text = "image"
        url = safe_url(str(attrs.get("url") or ""))
        if url is None:
            return text
        title = attrs.get("title")
        title_attr = f' title="{html_text(str(title))}"' if title else ""
        href = f' href="{html_text(url)}"{title_attr}'
        return f"{self._open('a', href)}{text}</a>"
