"""Escaping for each target: Slack mrkdwn, Discord/Discourse markdown, HTML attributes.

Every function here is total (any string in, safe string out) and tested with hostile input.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from urllib.parse import quote

from renderers.base import is_safe_url
from renderers.spaces import one_line as one_line  # re-exported: the writers import it here
from renderers.url_encoding import encoded_url

ZWJ = "\u200d"
_MENTION = re.compile(r"@(everyone|here|channel)", re.I)
# what opens a Discord mention-like token: user, role or channel "<@…>", "<#…>", custom emoji
# "<:…>", "<a:…>", slash command "</…>", timestamp "<t:…>", navigation "<id:home>" (in text, where
# a joiner is invisible and nobody copies it to run it)
_DISCORD_ANGLE = re.compile(r"<(?=[@#:/a]|t:|id:)", re.I)
# The tokens Discord itself reads in a message (developer docs, Reference, "Message Formatting"):
# user "<@id>"/"<@!id>", role "<@&id>", channel "<#id>", slash command "</name sub:id>", custom
# emoji "<:name:id>"/"<a:name:id>", timestamp "<t:unix>"/"<t:unix:R>", guild navigation
# "<id:customize>". Only these are broken in code: "</script>", "<a href>", Scala's "T <: U" stay
# as written, to be copied as they are. Discord's docs do not say that code keeps the others
# from being read (its server has rewritten a custom emoji inside a code span), so they are
# still broken there. "<@" and "<#" are broken whatever follows, as in text.
_DISCORD_TOKEN = re.compile(r"<(?=[@#]|/[^\s<>:/][^<>:\n]*:\d+>|a?:\w+:\d+>|t:-?\d|id:\w)", re.I)
_MD_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_{}[]()<>#+|~!"})


_VISIBLE = re.compile(r"[^\s\u200b\u200c\u200d\u2060\ufeff]")


def visible(text: str) -> bool:
    """True when ``text`` shows something: not only whitespace and zero-width characters.

    Platforms reject empty elements (Slack ``invalid_blocks`` for an empty header or section);
    a block whose text is not visible is left out instead.
    """
    return _VISIBLE.search(text) is not None


def slack_text(text: str) -> str:
    """Escape Slack's control characters so text can never form a link or a mention."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# Slack has no escape for its formatting characters (a backslash shows as itself). It pairs a
# marker only where it touches a word boundary outside and text inside, so a zero-width joiner
# on each side keeps it from opening or closing bold, italic, strike or code; the character
# itself is still there to read and copy. An underscore between two word characters
# (snake_case) can neither open nor close italics, and stays as it is to copy. (Every branch
# starts with the mark itself, the lookbehind after it: so the regex engine skips ahead to the
# next mark instead of trying each branch at every character, three times as fast on plain text.)
_SLACK_FORMATTING = re.compile(r"[*~`]|_(?:(?<!\w_)|(?!\w))")


def slack_literal(text: str) -> str:
    """``text`` shown as it is in mrkdwn: escaped (:func:`slack_text`), and no asterisk,
    underscore, tilde or backtick formatting anything. Bare URLs and e-mail addresses are left
    whole (a joiner would break the link Slack makes of them)."""
    if _SLACK_FORMATTING.search(text) is None:
        return slack_text(text)
    return slack_text(outside_urls(text, lambda part: _SLACK_FORMATTING.sub(_joined, part)))


def _joined(m: re.Match[str]) -> str:
    return ZWJ + m.group(0) + ZWJ


TableBars = tuple[str, str, str]
_BARS: TableBars = (" | ", "-+-", "-")
_BOX_BARS: TableBars = (" \u2502 ", "\u2500\u253c\u2500", "\u2500")


def table_bars(rows: list[list[str]]) -> TableBars:
    """How a table drawn as text separates its columns: ``(between cells, where the header rule
    crosses them, the rule itself)``. ``" | "`` unless a cell holds a ``|``, which would read as
    one more column: then box-drawing lines, and the cell (a command, say) stays as written."""
    if any("|" in cell for row in rows for cell in row):
        return _BOX_BARS
    return _BARS


def slack_link_text(text: str) -> str:
    """Text shown inside ``<url|text>``: escaped, one line, no ``|``, no formatting."""
    return slack_literal(one_line(text)).replace("|", "\u2223")


def slack_url(url: str) -> str:
    """A URL safe inside ``<url|text>``: encoded by the one rule (:func:`encoded_url`, which
    leaves no ``|``, ``<``, ``>`` or space to end it), its ``&`` escaped as Slack asks."""
    return encoded_url(url).replace("&", "&amp;")


# Discord shows a masked link's label with its backslashes (it turns escaping off there), so a
# label is made safe without them: doubled marks (bold, underline, strike, spoiler) get a
# zero-width space between them, and a URL in it ("https://…" makes Discord show the whole link
# as text) one after its colon.
_MARK = re.compile(r"[*_~|`]")
_DOUBLED_MARK = re.compile(r"([*_~|`])(?=\1)")
_LABEL_SCHEME = re.compile(r"(\w:)(?=//)")
_BRACKETS = str.maketrans("[]", "()")
# A single "*" or "_" opening a pair that would show in italics ("*new*", "_fast_"; not "a*b"
# or snake_case): no backslash or invisible character stops that in a label, so the opening mark
# becomes a look-alike, the asterisk operator or a modifier low macron.
_SINGLE_STAR = re.compile(r"(?<!\*)\*(?=[^\s*])(?=[^*]*?[^\s*]\*(?!\*))")
_SINGLE_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9_])_(?=[^\s_])(?=[^_]*?[^\s_]_(?![A-Za-z0-9_]))")


def discord_label(text: str) -> str:
    """``text`` as the label of a Discord masked link ``[label](<url>)``: on one line, with no
    backslash (Discord would show it), brackets (which would end the label) as parentheses, no
    bold/italics/underline/strike/spoiler pair, no URL and no mention."""
    text = one_line(text)
    if "[" in text or "]" in text:
        text = text.translate(_BRACKETS)
    if "://" in text:
        text = _LABEL_SCHEME.sub("\\1\u200b", text)
    if _MARK.search(text) is not None:  # rare in a title: skip the slower substitution
        text = _SINGLE_STAR.sub("\u2217", _SINGLE_UNDERSCORE.sub("\u02cd", text))
        text = _DOUBLED_MARK.sub("\\1\u200b", text)
        if "`" in text:
            # "` `" would show as an empty code box, and a backslash cannot escape it here:
            # such a pair becomes look-alike grave accents
            text = _BLANK_CODE.sub(_grave_accents, text)
    if text.endswith("\\"):
        # "\]" would not end the label where a backslash escapes (CommonMark): the link would
        # show as text; a zero-width space after it ends the label either way
        text += "\u200b"
    return no_mentions(text)


_BLANK_CODE = re.compile(r"(?<!`)(`+)(\s*)\1(?!`)")


def _grave_accents(m: re.Match[str]) -> str:
    ticks = "\u02cb" * len(m[1])
    return ticks + m[2] + ticks


def no_mentions(text: str) -> str:
    """Neutralise ``@everyone``/``@here``/``@channel`` and Discord ``<@…>``-style tokens.

    Bare URLs and e-mail addresses (``https://e.example/@everyone``, ``me@here.com``) stay
    byte for byte, as the platform links them: a joiner would break the link, and a message's
    ``allowed_mentions`` already keeps such text from pinging anyone."""
    if "@" in text and _MENTION.search(text) is not None:
        text = outside_urls(text, _break_mentions)
    return _DISCORD_ANGLE.sub("<" + ZWJ, text) if "<" in text else text


def code_mentions(code: str) -> str:
    """Discord code (a code span or block) with the tokens Discord reads (``<@id>``,
    ``<#id>``, ``</cmd:id>``, ``<:emoji:id>``, ``<t:…>``, ``<id:…>``) broken, and everything
    else as written: ``@everyone``/``@here``, ``</script>``, ``<a href>``. A joiner in them
    would be copied with the code (``npm install @here/maps``), and a message's
    ``allowed_mentions`` (``parse: []``, on every message and client-wide) keeps the mentions
    from pinging anyone, as it does in a URL."""
    return _DISCORD_TOKEN.sub("<" + ZWJ, code) if "<" in code else code


def _break_mentions(text: str) -> str:
    return _MENTION.sub(lambda m: "@" + ZWJ + m.group(1), text)


# A bare URL or e-mail address in text (linkified by the platform): never altered inside.
# (The address starts where a word does and never backtracks: a long word with an "@" in it
# would otherwise be scanned again from each of its characters.)
_URL_SPAN = re.compile(
    r"(?:https?://|mailto:|www\.)[^\s<>]*|(?<![\w.+-])[\w.+-]++@[\w-]++(?:\.[\w-]++)+", re.I
)
# Discourse may start a mention after punctuation, another "@" included ("@@everyone" pings
# everyone), so every "@" before a name is broken, whatever stands before it
_AT_MENTION = re.compile(r"@(?=\w)")


def no_forum_mentions(text: str) -> str:
    """Break every ``@name`` that could mention a Discourse user, leaving URLs and addresses.

    A zero-width space after ``@`` stops the mention; inside a URL (``…/@team/docs``,
    ``mailto:a@b.c``) it would break the link instead, so URLs are kept byte for byte.
    """
    if "@" not in text:
        return text
    return outside_urls(text, lambda part: _AT_MENTION.sub("@\u200b", part))


# what linkifiers leave out of a URL's end ("see https://x.y/a." links https://x.y/a)
_URL_TRAILING = ".,:;!?'\")]*_~|"


def outside_urls(
    text: str, change: Callable[[str], str], inside: Callable[[str], str] | None = None
) -> str:
    """``text`` with ``change`` applied to everything but its bare URLs and e-mail addresses,
    which stay byte for byte (the platform links them; any mark inside would break the link),
    or get ``inside`` when given. Punctuation ending a URL is not part of the link, so it is
    changed like the text around."""
    out: list[str] = []
    last = 0
    for m in _URL_SPAN.finditer(text):
        url = link_part(m.group(0))
        if url.lower() in _NOT_A_LINK:
            continue  # "www." ending a sentence, a scheme alone: text like any other
        out.append(change(text[last : m.start()]))
        out.append(inside(url) if inside else url)
        last = m.start() + len(url)
    out.append(change(text[last:]))
    return "".join(out)


_NOT_A_LINK = frozenset({"", "www", "http://", "https://", "mailto:"})
_URL_START = re.compile(r"https?://|mailto:|www\.", re.I)


def ends_in_url(text: str) -> bool:
    """True when the last word of ``text`` holds a bare URL (``…/dl``, ``(https://x.y).``).

    A citation marker written right after it would be linked with it: Discord's linkifier and
    Discourse's (markdown-it) run a URL on through ``\\[1\\]`` or ``[^1]``, and so may a mail
    client through ``[1]``. Only the last word is read.
    """
    if ":" not in text and "ww" not in text and "WW" not in text:
        return False  # most text holds no URL: say so before looking for the last word
    word = text[text.rfind(" ") + 1 :]  # text tokens hold spaces; other white space is rare
    if "\n" in word or "\t" in word:
        word = "" if word[-1].isspace() else word.split()[-1]
    if ":" not in word and "ww" not in word and "WW" not in word:
        return False  # the usual last word ("works.", "8443"): no scheme, no "www."
    return _URL_START.search(word) is not None


def link_part(found: str) -> str:
    """What linkifiers link of a URL-like run: without the punctuation ending it, a ")" only
    when it closes nothing inside ("…/Foo_(bar)" keeps its own)."""
    while True:
        url = found.rstrip(_URL_TRAILING.replace(")", ""))
        if url.endswith(")") and url.count(")") > url.count("("):
            found = url[:-1]
            continue
        return url


def md_text(text: str) -> str:
    """Escape markdown punctuation so ``text`` shows literally (link titles, file names)."""
    escaped = one_line(text).translate(_MD_SPECIAL)
    # "[^9](url)" would be a footnote reference, not a link
    return "\\" + escaped if escaped.startswith("^") else escaped


# Parentheses are valid in a URL but would end or unbalance "(url)": the only characters
# Markdown needs encoded that the one rule keeps (it leaves no space, "<", ">" or backslash,
# which in "(https://a.example/\)" would escape the ")" ending the link).
_MD_URL = str.maketrans({"(": "%28", ")": "%29"})


def md_url(url: str) -> str:
    """A URL safe inside ``[text](url)`` / ``[text](<url>)``: encoded by the one rule
    (:func:`encoded_url`), and its parentheses percent-encoded."""
    return encoded_url(url).translate(_MD_URL)


def safe_url(url: str | None) -> str | None:
    """``url`` when it is http, https or mailto, else None."""
    return url if url and is_safe_url(url) else None


def html_text(text: str) -> str:
    """HTML-escape text for element content and attribute values."""
    return html.escape(text, quote=True)


def html_url(url: str) -> str:
    """``url`` as an HTML attribute (``href``) holds it: encoded by the one rule
    (:func:`encoded_url`, no ``"`` is left to end the attribute), then HTML-escaped."""
    return html.escape(encoded_url(url), quote=True)


def text_url(url: str) -> str:
    """``url`` as plain text (the e-mail's text part) and an HTML ``href`` write it, to be
    linked whole: encoded by the one rule (:func:`encoded_url`), so no white space ends the
    link a mail client makes of it, and no ``<``, ``>`` or ``"`` the ``<url>`` or attribute
    around it."""
    return encoded_url(url)


def url_path_part(text: str) -> str:
    """Percent-encode ``text`` for use as one URL path segment."""
    return quote(text, safe="")
