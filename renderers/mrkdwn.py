"""Tree walker from the mistune AST to Slack mrkdwn.

Headings become bold lines, lists bullets or numbers indented four spaces per level, tables a
monospace block (or ``*Header*: value`` lines when too wide or holding a link), quotes ``>``
(one level: Slack cannot nest them), code fenced with triple backticks, links ``<url|text>``
(``text (<url>)`` when the text reads as another address: ``renderers.link_urls``).
All answer text is escaped (``& < >``) so it can never form a link, a mention or
``<!channel>``. ``cite(n)`` writes a citation marker.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping

from bot.markdown import Token, html_block_pieces
from renderers.base import CitationForm
from renderers.capabilities import LinkStyle
from renderers.document import (
    cited_numbers,
    has_links,
    list_shows_text,
    table_rows,
    without_citations,
)
from renderers.escaping import (
    one_line,
    slack_link_text,
    slack_literal,
    slack_text,
    slack_url,
    table_bars,
    visible,
)
from renderers.glue import NO_BREAK_SPACE, glued, glued_plain, spaced_mark
from renderers.limits import LINK_TOO_LONG, SLACK_MAX_LINK
from renderers.link_urls import label_hides_target, link_url

TABLE_MAX_WIDTH = 72


def code_text(text: str) -> str:
    """Text inside a code span or block: escaped, and unable to close the fence early."""
    return slack_text(text).replace("```", "`\u200b``")


def code_span(code: str) -> str:
    """Inline code as mrkdwn, showing exactly ``code``.

    mrkdwn has no way to put a backtick inside inline code (it ends the span, and a backslash
    shows as itself), so code holding one is shown as literal text rather than altered.
    """
    if not visible(code):
        return code  # "``" or "` `" would show the backticks themselves
    if "`" in code:
        return slack_literal(code)
    return f"`{code_text(code)}`"


class MrkdwnWriter:
    """Render block tokens to mrkdwn strings."""

    def __init__(
        self,
        cite: Callable[[int], str],
        cite_plain: Callable[[int], str],
        forms: Mapping[int, CitationForm] | None = None,
        links: LinkStyle = "masked",
    ):
        """``forms``: the answer's citation forms, which a link labelled like a citation must
        lead to (:func:`renderers.link_urls.link_url`). ``links``: how the answer's links show
        (:func:`renderers.capabilities.link_style`)."""
        self._cite = cite
        self._cite_plain = cite_plain
        self._forms = forms
        self._links = links

    def block(self, token: Token, depth: int = 0) -> str:
        kind = token["type"]
        children = token.get("children") or []
        if kind in ("paragraph", "block_text"):
            return self.inline(children)
        if kind == "heading":
            title = self.inline(children, bold=True).strip()
            return f"*{title}*" if visible(title) else ""
        if kind == "list":
            return self._list(token, depth)
        if kind == "block_quote":
            # every line quoted once: Slack has no nested quote ("> > x" shows the second ">"),
            # and a line of a bare ">" shows as itself, so blocks follow line by line
            lines = self._quoted(token, depth).split("\n")
            return "\n".join(f"> {line}" for line in lines if visible(line))
        if kind == "block_code":
            code = str(token.get("raw", "")).rstrip("\n")
            return f"```\n{code_text(code)}\n```" if visible(code) else ""
        if kind == "thematic_break":
            return "\u2015" * 12
        if kind == "table":
            return self._table(token)
        if kind == "block_html":
            return self.inline(html_block_pieces(token))
        if children:
            return "\n".join(self.block(c, depth) for c in children)
        return slack_literal(str(token.get("raw", "")))

    def _quoted(self, token: Token, depth: int) -> str:
        """The blocks of a quote, a quote inside it included, without the ``>`` markers."""
        blocks = (
            self._quoted(c, depth) if c["type"] == "block_quote" else self.block(c, depth)
            for c in token.get("children") or []
        )
        return "\n".join(b for b in blocks if visible(b))

    def _list(self, token: Token, depth: int) -> str:
        if not list_shows_text(token):
            return ""
        attrs = token.get("attrs") or {}
        ordered = bool(attrs.get("ordered"))
        number = int(attrs.get("start") or 1)
        indent = "    " * depth
        lines: list[str] = []
        for item in token.get("children") or []:
            marker = f"{number}." if ordered else "\u2022"
            number += 1
            parts = [
                self.block(c, depth + 1) if c["type"] == "list" else self.block(c, depth)
                for c in item.get("children") or []
            ]
            parts = [part for part in parts if visible(part)]
            if not parts and not ordered:
                continue  # an empty bullet shows nothing; an empty numbered item keeps its number
            first, *rest = parts or [""]
            lines.append(f"{indent}{marker} {first}")
            for part in rest:
                # a code block (or monospace table) stays unindented: Slack would show the
                # indent as spaces inside the block, and its fence needs no indent to nest
                if part.startswith((indent + "    ", "```\n")) or not part:
                    lines.append(part)
                else:
                    lines.extend(f"{indent}    {line}" for line in part.split("\n"))
        return "\n".join(lines)

    def _table(self, token: Token) -> str:
        cells = table_rows(token)
        rows = [[one_line(self.plain(cell)) for cell in row] for row in cells]
        if not any(visible(cell) for row in rows for cell in row):
            return ""
        widths = [max(len(r[i]) if i < len(r) else 0 for r in rows) for i in range(len(rows[0]))]
        # a link in a cell needs the card form too: a monospace block would drop its URL
        if sum(widths) + 3 * len(widths) <= TABLE_MAX_WIDTH and not has_links(cells):
            # a monospace block cannot hold links: its markers are plain, the sources follow
            bar, cross, rule = table_bars(rows)
            lines = [bar.join(c.ljust(w) for c, w in zip(r, widths, strict=False)) for r in rows]
            lines.insert(1, cross.join(rule * w for w in widths))
            body = "\n".join(line.rstrip() for line in lines)
            return f"```\n{code_text(body)}\n```"
        return self._cards(cells)

    def _cards(self, cells: list[list[list[Token]]]) -> str:
        """A table too wide for monospace: one ``*Header*: value`` line per cell, row by row,
        formatted and with linked citations like any other text."""
        head = [self.inline(cell, bold=True).strip() for cell in cells[0]]
        out: list[str] = []
        for row in cells[1:]:
            pairs: list[str] = []
            for title, cell in zip(head, row, strict=False):
                value = self.inline(cell).strip()
                if visible(value):
                    pairs.append(f"*{title}*: {value}" if visible(title) else value)
            if pairs:
                out.append("\n".join(pairs))
        return "\n\n".join(out)

    def plain(self, tokens: list[Token]) -> str:
        """Visible text of inline tokens (citations as plain markers), unescaped."""
        out: list[str] = []
        for i, token in enumerate(tokens):
            if token["type"] == "citation":
                mark = self._cite_plain(int(token["attrs"]["n"]))
                if mark and spaced_mark(tokens, i) and out and out[-1].endswith(" "):
                    out[-1] = glued(out[-1], NO_BREAK_SPACE)  # as in the blocks (inline)
                out.append(mark)
            elif token["type"] == "text":
                out.append(html.unescape(str(token.get("raw", ""))))
            elif token["type"] in ("softbreak", "linebreak"):
                out.append(" ")
            elif token.get("children"):
                out.append(self.plain(token["children"]))
            else:
                out.append(str(token.get("raw", "")))
        return "".join(out)

    def inline(self, tokens: list[Token], bold: bool = False) -> str:
        out: list[str] = []
        for i, token in enumerate(tokens):
            kind = token["type"]
            children = token.get("children") or []
            if kind == "text":
                out.append(slack_literal(html.unescape(str(token.get("raw", "")))))
            elif kind == "citation":
                mark = self._cite(int(token["attrs"]["n"]))
                if mark and spaced_mark(tokens, i) and out[-1].endswith(" "):
                    out[-1] = glued(out[-1], NO_BREAK_SPACE)
                out.append(mark)
            elif kind in ("emphasis", "strong", "strikethrough"):
                inner = self.inline(children, bold or kind == "strong")
                if (kind == "strong" and bold) or _inside_word(tokens, i, out):
                    out.append(inner)  # Slack formats only at word boundaries: no stray marks
                else:
                    mark = {"emphasis": "_", "strong": "*", "strikethrough": "~"}[kind]
                    out.append(f"{mark}{inner}{mark}")
            elif kind == "codespan":
                out.append(code_span(str(token.get("raw", ""))))
            elif kind in ("link", "image"):
                cited = cited_numbers(children)  # a citation follows the link it was inside
                label = glued_plain(without_citations(children)) or (
                    "image" if kind == "image" else ""
                )
                url = link_url(token, self._forms) if self._links != "text" else None
                link = f"<{slack_url(url)}|{slack_link_text(label or url)}>" if url else ""
                bare = self._links == "bare" and bool(label) and label != url
                if url and (label_hides_target(token, url) or bare):
                    # its label shown as text, then where it really leads (renderers.link_urls)
                    link = f"{slack_literal(one_line(label))} (<{slack_url(url)}>)"
                if len(link) > SLACK_MAX_LINK and label and label != url:
                    link = slack_literal(one_line(label)) + LINK_TOO_LONG  # else cut in two
                out.append(link or slack_literal(label))
                out += [self._cite(n) for n in cited]
            elif kind == "softbreak":
                out.append(" ")  # Slack shows every newline; a soft break is a space
            elif kind == "linebreak":
                out.append("\n")
            elif kind == "inline_html":
                out.append(slack_literal(str(token.get("raw", ""))))
            elif children:
                out.append(self.inline(children, bold))
            else:
                out.append(slack_literal(str(token.get("raw", ""))))
        return "".join(out)


def _inside_word(tokens: list[Token], i: int, out: list[str]) -> bool:
    """True when the span ``tokens[i]`` touches a letter or digit on either side (CommonMark's
    ``foo*bar*baz``), where Slack would show its marks instead of formatting."""
    before = out[-1][-1:] if out else ""
    after = ""
    if i + 1 < len(tokens) and tokens[i + 1]["type"] == "text":
        after = str(tokens[i + 1].get("raw", ""))[:1]
    return before.isalnum() or after.isalnum()
