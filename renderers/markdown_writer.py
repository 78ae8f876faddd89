"""Tree walker from the mistune AST back to markdown, in the Discord or the Discourse dialect.

Text is escaped so it shows literally (an answer can never form a masked link, a mention or raw
HTML); links keep only http/https/mailto URLs (and one labelled like a citation only a cited
source's: ``renderers.link_urls``), and one whose label reads as another address shows that
label as text, then its own address (``renderers.markdown_links``). Discord has no tables or
rules, so tables become a monospace block (``**Header**: value`` lines when too wide or holding
a link) and rules a line of box characters; Discourse keeps GFM tables.
"""

from __future__ import annotations

import html
import itertools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bot.deeplinks import without_text_fragment
from bot.markdown import Token, html_block_pieces
from renderers.base import CitationForm
from renderers.capabilities import LinkStyle
from renderers.document import (
    cited_numbers,
    empty_label,
    has_links,
    list_shows_text,
    shows_text,
    table_rows,
    without_citations,
)
from renderers.escaping import (
    code_mentions,
    ends_in_url,
    md_text,
    no_forum_mentions,
    no_mentions,
    one_line,
    table_bars,
    visible,
)
from renderers.glue import NO_BREAK_SPACE, glued, glued_plain, spaced_mark
from renderers.limits import DISCORD_MAX_LINK, DISCOURSE_MAX_LINK, LINK_TOO_LONG
from renderers.link_urls import label_hides_target, label_is_target, link_url
from renderers.markdown_links import Dialect, autolink, discord_link, escape_text, masked_link
from renderers.text_writer import quoted

_LINE_START = re.compile(r"^(?:([#>+\-=])|(\d+)([.)]))", re.M)
TABLE_MAX_WIDTH = 60
_FOOTNOTE_DEFINITION = re.compile(r"^( {0,3}\[\^[^\]\s]+\]):", re.M)
_BACKTICK_RUN = re.compile(r"`+")
_BACKTICK_PAIRS = re.compile(r"`(?=`)")


def _escape_line_start(m: re.Match[str]) -> str:
    if m.group(1):
        return "\\" + m.group(1)
    return f"{m.group(2)}\\{m.group(3)}"


def fence_for(code: str) -> str:
    """A backtick fence longer than any backtick run inside ``code``."""
    return "`" * max(3, _longest_backtick_run(code) + 1)


def _longest_backtick_run(code: str) -> int:
    return max((len(m) for m in _BACKTICK_RUN.findall(code)), default=0)


def code_span(code: str, dialect: Dialect) -> str:
    """Inline ``code`` (one line, visible) shown as written, backticks included.

    The fence is one backtick longer than any run inside, padded with a space when the code
    starts or ends with a backtick (CommonMark and Discord both strip one such space). Discord
    reads three backticks anywhere as a code block, so there runs of two or more are broken
    with a zero-width space to keep the fence at two.
    """
    if dialect == "discord":
        code = code_mentions(_BACKTICK_PAIRS.sub("`\u200b", code))
    fence = "`" * (_longest_backtick_run(code) + 1)
    pad = " " if code.startswith("`") or code.endswith("`") else ""
    return f"{fence}{pad}{code}{pad}{fence}"


def indent_under(text: str, width: int) -> str:
    """``text`` with every line after the first indented ``width`` spaces (blank lines stay
    empty): the blocks of a list item after its first line must sit under its text, or a code
    fence, paragraph or quote at column 0 ends the list."""
    pad = " " * width
    return "\n".join(
        line if index == 0 or not line else pad + line
        for index, line in enumerate(text.split("\n"))
    )


# the closing sequence of an ATX heading: "#"s at its end after a space (group 1: the first)
_CLOSING_HASHES = re.compile(r"(?:(?<=[ \t])|^)(#)(?=#*$)")


def _heading_end(title: str, dialect: Dialect) -> str:
    """A heading's ``title`` ending in ``#`` kept whole. Discourse (CommonMark) drops a closing
    sequence ("Setup #"), its first ``#`` escaped keeps it. Discord's heading parser is not
    CommonMark's (how it treats trailing ``#``s and a backslash before one is undocumented), so
    there a zero-width space after them ends the title instead, whatever the parser does."""
    if dialect == "discord":
        return title + "\u200b"
    return _CLOSING_HASHES.sub(r"\\\1", title)


class MarkdownWriter:
    """Render block tokens to Discord or Discourse markdown."""

    def __init__(
        self,
        dialect: Dialect,
        cite: Callable[[int], str],
        *,
        longest_link: int | None = None,
        forms: Mapping[int, CitationForm] | None = None,
        links: LinkStyle = "masked",
    ):
        """``longest_link``: the longest Discourse link shown whole (half the configured post
        limit; :data:`DISCOURSE_MAX_LINK`, half the forum's default, when not given).
        ``forms``: the answer's citation forms, which a link labelled like a citation must lead
        to (:func:`renderers.link_urls.link_url`). ``links``: how the answer's links show
        (:func:`link_style`)."""
        self._forms = forms
        self._links = links
        self._dialect = dialect
        self._longest_link = DISCOURSE_MAX_LINK if longest_link is None else longest_link
        self._cite = cite
        self._in_quote = False  # Discord: inside a quote, which cannot hold another

    def block(self, token: Token) -> str:
        kind = token["type"]
        children = token.get("children") or []
        if kind in ("paragraph", "block_text"):
            return self._lines(self.inline(children))
        if kind == "heading":
            level = int(token["attrs"]["level"])
            if self._dialect == "discord":
                level = 2 if level <= 2 else 3
            title = one_line(self.inline(children))
            if title.endswith("#"):
                title = _heading_end(title, self._dialect)
            return "#" * level + " " + title if visible(title) else ""
        if kind == "list":
            return self._list(token)
        if kind == "block_quote":
            if self._dialect == "discourse":
                return quoted(self.block(c) for c in children)
            return self._discord_quote(children)
        if kind == "block_code":
            return self._code(str(token.get("raw", "")), (token.get("attrs") or {}).get("info"))
        if kind == "thematic_break":
            return "\u2500" * 12 if self._dialect == "discord" else "---"
        if kind == "table":
            return self._table(token)
        if kind == "block_html":
            # shown as text, like a paragraph: an unclosed "<pre>" makes the rest of the answer
            # one HTML block, whose "# " or "- " lines must not become headings or bullets
            return self._lines(self.inline(html_block_pieces(token)))
        if children:
            return "\n\n".join(self.block(c) for c in children)
        return escape_text(str(token.get("raw", "")), self._dialect)

    def _lines(self, text: str) -> str:
        """Rendered inline ``text`` whose lines cannot start a block (heading, list, quote)."""
        text = _LINE_START.sub(_escape_line_start, text)
        if self._dialect == "discourse" and "]:" in text:
            # a line opening "[^2]: …" would define footnote 2, not cite it
            text = _FOOTNOTE_DEFINITION.sub(r"\1\\:", text)
        return text

    def _discord_quote(self, children: list[Token]) -> str:
        """A Discord quote: one level only, every line starting "> " (a quote inside it joins
        it, since Discord shows a second ">" as text; and a line of a bare ">" is text too,
        ending the quote, so an empty line inside it is "> ")."""
        if self._in_quote:
            return "\n\n".join(b for b in (self.block(c) for c in children) if visible(b))
        self._in_quote = True
        try:
            return quoted((self.block(c) for c in children), blank="> ")
        finally:
            self._in_quote = False

    def _code(self, code: str, info: object) -> str:
        code = code.rstrip("\n")
        if not visible(code):
            return ""
        lang = str(info or "").split(" ")[0]
        lang = lang if lang.isalnum() else ""
        if self._dialect == "discord":
            # Discord cannot use longer fences; break any ``` inside the code instead
            safe = code_mentions(code.replace("```", "`\u200b``"))
            return f"```{lang}\n{safe}\n```"
        fence = fence_for(code)
        return f"{fence}{lang}\n{code}\n{fence}"

    def _list(self, token: Token) -> str:
        if not list_shows_text(token):
            return ""
        attrs = token.get("attrs") or {}
        ordered = bool(attrs.get("ordered"))
        number = int(attrs.get("start") or 1)
        sep = "\n" if token.get("tight", True) else "\n\n"
        items: list[str] = []
        for item in token.get("children") or []:
            marker = f"{number}. " if ordered else "- "
            number += 1
            rendered = (self.block(child) for child in item.get("children") or [])
            parts = [text for text in rendered if visible(text)]  # an empty part ends the item
            if not parts and not ordered:
                continue  # an empty bullet shows nothing; an empty numbered item keeps its number
            items.append(marker + indent_under(sep.join(parts), len(marker)))
        return sep.join(items)

    def _table(self, token: Token) -> str:
        rows = table_rows(token, markdown=self._dialect == "discourse")
        if not shows_text(rows):
            return ""
        if self._dialect == "discourse":  # a GFM table again: code keeps its "\|"
            lines = [
                "| " + " | ".join(one_line(self.inline(c)) for c in row) + " |" for row in rows
            ]
            lines.insert(1, "|" + "---|" * len(rows[0]))
            return "\n".join(lines)
        texts = [[one_line(glued_plain(c, self._plain_cite)) for c in row] for row in rows]
        widths = [max(len(r[i]) if i < len(r) else 0 for r in texts) for i in range(len(texts[0]))]
        links = has_links(rows)
        if links or sum(widths) + 3 * len(widths) > TABLE_MAX_WIDTH:
            # "**Header**: value" lines; a cell's link keeps its URL only written as a link
            shown = (
                [[one_line(self.inline(c)) for c in row] for row in rows]
                if links
                else [[md_text(c) for c in row] for row in texts]
            )
            head, *body = shown
            blocks = [
                "\n".join(
                    f"**{h}**: {c}" if visible(h) else c
                    for h, c in zip(head, r, strict=False)
                    if visible(c)
                )
                for r in body
            ]
            return no_mentions("\n\n".join(b for b in blocks if b))
        bar, cross, rule = table_bars(texts)
        lines = [bar.join(c.ljust(w) for c, w in zip(r, widths, strict=False)) for r in texts]
        lines.insert(1, cross.join(rule * w for w in widths))
        body_text = "\n".join(line.rstrip() for line in lines).replace("```", "`\u200b``")
        return f"```\n{no_mentions(body_text)}\n```"

    def _plain_cite(self, n: int) -> str:
        """A marker as a code block shows it: as the text outside shows it (``\\[2?\\]`` reads
        ``[2?]``), without the escapes a code block would show."""
        return self._cite(n).replace("\\", "")

    def inline(self, tokens: list[Token]) -> str:
        out: list[str] = []
        for i, token in enumerate(tokens):
            kind = token["type"]
            children = token.get("children") or []
            if kind in ("text", "inline_html"):
                if kind == "text":
                    if i and tokens[i - 1]["type"] == "text":
                        continue  # written with the run it belongs to
                    raw = _text_run(tokens, i)
                else:
                    raw = str(token.get("raw", ""))  # shown as written: entities stay
                text = escape_text(raw, self._dialect)
                if text[:1] == "(" and i and tokens[i - 1]["type"] == "citation":
                    text = "\\" + text  # "[^1](TCP)" would be a link to "TCP", not a footnote
                out.append(text)
            elif kind == "citation":
                mark = self._cite(int(token["attrs"]["n"]))
                after_text = i and tokens[i - 1]["type"] in ("text", "inline_html")
                if mark and after_text and ends_in_url(out[-1]):
                    mark = " " + mark  # else the platform links the marker as part of the URL
                elif mark and spaced_mark(tokens, i) and out[-1].endswith(" "):
                    out[-1] = glued(out[-1], NO_BREAK_SPACE)
                out.append(mark)
            elif kind == "emphasis":
                out.append(f"*{self.inline(children)}*")
            elif kind == "strong":
                out.append(f"**{self.inline(children)}**")
            elif kind == "strikethrough":
                out.append(f"~~{self.inline(children)}~~")
            elif kind == "codespan":
                code = one_line(str(token.get("raw", "")))
                if not visible(code):
                    out.append(" " if token.get("raw") else "")  # "``" would show backticks
                else:
                    out.append(code_span(code, self._dialect))
            elif kind in ("link", "image"):
                out.append(self._link(token))
            elif kind == "softbreak":
                # Discord shows every newline; in a Discourse post a soft break stays one
                out.append(" " if self._dialect == "discord" else "\n")
            elif kind == "linebreak":
                out.append("\\\n" if self._dialect == "discourse" else "\n")
            elif children:
                out.append(self.inline(children))
            else:
                out.append(escape_text(str(token.get("raw", "")), self._dialect))
        return "".join(out)

    def _link(self, token: Token) -> str:
        children = token.get("children") or []
        # a citation inside link text cannot stay there (a footnote inside a link label is
        # not one): it follows the link instead
        cited = cited_numbers(children)
        if cited:
            children = without_citations(children)
        after = "".join(self._cite(n) for n in cited)
        url = link_url(token, self._forms)
        # a link whose label was only citations ("[[^1]](url)") shows its address, not "image"
        label = one_line(glued_plain(children)) or empty_label(token, url)
        if url is None or self._links == "text":
            return escape_text(label, self._dialect) + after
        longest = DISCORD_MAX_LINK if self._dialect == "discord" else self._longest_link
        if label_hides_target(token, url) or (self._links == "bare" and label != url):
            link = escape_text(label, self._dialect) + " (" + autolink(url, self._dialect) + ")"
        elif (
            self._dialect == "discord"
            and ("[" in label or "]" in label)
            and label_is_target(token, url)
        ):
            # the label is the address itself, brackets and all (an autolink): a masked link
            # would have to show its brackets as parentheses, so the address shows alone
            link = autolink(url, self._dialect)
        elif self._dialect == "discord":
            link = discord_link(label, url)
        else:
            link = masked_link(no_forum_mentions(md_text(label)), url, self._dialect)
        if len(link) > longest and label != url:
            # no message could hold it whole, and a cut link shows as broken syntax
            return escape_text(label, self._dialect) + LINK_TOO_LONG + after
        return link + after


def _text_run(tokens: list[Token], start: int) -> str:
    """The text of the run of ``text`` tokens from ``start``, entities decoded. Mentions are
    broken in the run as a whole: the parser makes an escaped ``\\@`` a token of its own, and
    ``@`` at one token's end with ``everyone`` opening the next would mention all the same."""
    parts: list[str] = []
    for token in itertools.islice(tokens, start, None):
        if token["type"] != "text":
            break
        # each token's entities alone: "\&amp;" is the tokens "&" and "amp;", shown as such
        parts.append(html.unescape(str(token.get("raw", ""))))
    return "".join(parts)


@dataclass(frozen=True)
class EntryLevel:
    """How much of a source entry (Discord line, Discourse footnote) there is room for: text
    lengths (0 leaves the part out) and whether a deep link keeps its quote highlight."""

    title: int
    detail: int
    columns: int
    highlight: bool

    def url(self, url: str) -> str:
        """``url`` as this level links it."""
        return url if self.highlight else without_text_fragment(url)
