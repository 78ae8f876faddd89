"""A citation marker kept on the line of the word it cites.

Answers write a marker after a space ("works [^1]."), and a space is where a line may wrap:
the marker then opens the next line alone. Every channel keeps it with the word instead:

- HTML (web, email): no space before the superscript, and a word joiner (U+2060) at the start
  of the ``<sup>``, so no line can end between the word and its number ("works[1].", and
  "systemd.[1]", where a break after the full stop is allowed). A page that draws the number
  as an inline block (the web chat's badge) lets a browser wrap around the block whatever the
  text says: its style must also keep the ``<sup>`` whole (``white-space: nowrap``), and the
  joiner inside then holds it to the word.
- Text channels (Slack, Discord, Discourse, the email's text part): the space becomes a
  no-break space (U+00A0), which shows as a space and never wraps. Headings, table cells and
  source entries are put on one line by ``one_line`` (renderers.spaces), which keeps it.

A space after a URL stays: a no-break space could be read as part of the address by the
platform's link detection. In the text channels a space after a code span, formatted text or
a link stays too (the space is its own text there): Slack ends bold or italic text only before
an ordinary space. HTML has no such reading, and ``<code>x</code> <sup>`` would wrap there, so
the HTML writer glues after those as well (``markup=True``).
"""

from __future__ import annotations

import html
from collections.abc import Callable

from bot.markdown import Token
from renderers.document import cited_numbers
from renderers.escaping import ends_in_url

NO_BREAK_SPACE = "\u00a0"
WORD_JOINER = "\u2060"


# What a citation may be glued to in HTML besides a word: code, formatting and links, whose
# end tag is no place for a line to break before the number.
_MARKUP = frozenset({"codespan", "emphasis", "strong", "strikethrough", "link", "image"})


def spaced_mark(tokens: list[Token], i: int, *, markup: bool = False) -> bool:
    """True when the citation ``tokens[i]`` follows a word and spaces in the same text token
    (``works [^1]``): the spaces are to glue the marker to the word. With ``markup`` (HTML),
    also when only spaces separate it from a code span, formatted text or a link before it
    (```systemctl` [^1]``, ``**bold** [^1]``, ``[the guide](url) [^1]``).

    Not after another marker (``[^1] [^2]``): a run of a dozen glued markers would be one
    unbreakable stretch, wider than a phone's line; the first one stays with the word. Nor
    after markup that holds markers of its own (``*works [^1]* [^2]``), for the same reason."""
    if i == 0:
        return False
    before = tokens[i - 1]
    if before["type"] != "text":
        return False
    raw = str(before.get("raw", ""))
    if glues_after(raw):
        return True
    return markup and _spaces_after_markup(tokens, i - 1, raw)


def _spaces_after_markup(tokens: list[Token], i: int, raw: str) -> bool:
    if i == 0 or not raw or raw.strip(" "):
        return False
    before = tokens[i - 1]
    if before["type"] not in _MARKUP:
        return False
    return not cited_numbers(before.get("children") or [])


def glues_after(raw: str) -> bool:
    """True when a citation written right after ``raw`` (the text since the last inline token,
    as the answer wrote it) is to be glued: ``raw`` ends in spaces after a word that is not a
    URL. Whether ``raw`` follows formatting, code or a link is the caller's to know (a parse
    has tokens for those, the streamed text only its characters)."""
    if not raw.endswith(" "):
        return False
    word = html.unescape(raw).rstrip(" ")
    return bool(word) and not word[-1].isspace() and not ends_in_url(word)


def glued(written: str, joiner: str) -> str:
    """``written`` (a text token as a channel wrote it, ending in spaces) with its trailing
    spaces replaced by ``joiner``: "" for HTML, :data:`NO_BREAK_SPACE` for text channels."""
    return written.rstrip(" ") + joiner


def glued_plain(tokens: list[Token], mark: Callable[[int], str] | None = None) -> str:
    """The visible text of inline ``tokens`` as ``bot.markdown.plain_text`` writes it
    (citations ``[n]``, or as ``mark`` writes them: a monospace table's marker must read as the
    same marker does outside it, ``[2?]`` when weak), its entities decoded ("&amp;" is "&"), a
    spaced citation held to its word by a no-break space: the cells of a monospace table, which
    a phone wraps like any other text, and a link's label in a text channel ("Q&amp;A" showed
    as written)."""
    out: list[str] = []
    for i, token in enumerate(tokens):
        kind = token["type"]
        if kind == "citation":
            n = int(token["attrs"]["n"])
            written = f"[{n}]" if mark is None else mark(n)
            if written and spaced_mark(tokens, i) and out and out[-1].endswith(" "):
                out[-1] = glued(out[-1], NO_BREAK_SPACE)
            out.append(written)
        elif kind == "text":
            out.append(html.unescape(str(token.get("raw", ""))))
        elif kind in ("softbreak", "linebreak"):
            out.append(" ")
        elif "children" in token:
            out.append(glued_plain(token["children"], mark))
        else:
            out.append(str(token.get("raw", "")))
    return "".join(out)
