"""Text and links in Discord or Discourse markdown: literal text, masked links, autolinks.

Text is escaped so it shows literally (it can never form a masked link, a mention or raw HTML)
while bare URLs and e-mail addresses stay as written for the platform to link. A link whose
label reads as an address it does not open is written as that label, as text, and then its own
address (:func:`autolink`), never as a masked link (``renderers.link_urls``).
"""

from __future__ import annotations

import re
from typing import Literal

from renderers.escaping import (
    discord_label,
    md_url,
    no_forum_mentions,
    no_mentions,
    one_line,
    outside_urls,
)
from renderers.url_encoding import encoded_url

Dialect = Literal["discord", "discourse"]
# each character that could start markdown syntax, backslash-escaped (str.translate: one C pass)
_SPECIAL_CHARS = "\\`*_~[]<>|"
_TEXT_SPECIAL = str.maketrans({c: "\\" + c for c in _SPECIAL_CHARS})
_HAS_SPECIAL = re.compile(f"[{re.escape(_SPECIAL_CHARS)}]")


def escape_text(text: str, dialect: Dialect) -> str:
    """Literal text in the target dialect, unable to mention or ping anyone. Bare URLs and
    e-mail addresses stay byte for byte: the platform links them, and ``a\\_b`` inside one
    would become part of the link."""
    # most text has nothing to escape, and a regex search says so faster than translate copies it
    if _HAS_SPECIAL.search(text):
        if "://" in text or "@" in text or "www." in text:
            text = outside_urls(text, _translate_special, _translate_in_url)
        else:
            text = text.translate(_TEXT_SPECIAL)
    if dialect == "discord":
        return no_mentions(text)
    return no_forum_mentions(text)


def _translate_special(text: str) -> str:
    return text.translate(_TEXT_SPECIAL)


# Inside a bare URL only what could end a link label or a table cell is escaped: "_", "*" and
# "~" are common in URLs, and the platform's linkifier takes them (escaped, they would not be).
_URL_SPECIAL = str.maketrans({c: "\\" + c for c in "[]|`<>"})


def _translate_in_url(url: str) -> str:
    return url.translate(_URL_SPECIAL)


def masked_link(escaped_label: str, url: str, dialect: Dialect) -> str:
    """``[label](<url>)`` (Discord: the angle brackets suppress the embed) or ``[label](url)``.

    For Discord write links with :func:`discord_link`: it shows a label's escapes as written.
    Discourse reads an entity in a link's destination (``&lt;`` as ``<``), so an ``&`` that
    would start one is written ``&amp;``: the link opens the address as it is."""
    if dialect == "discord":
        return f"[{no_mentions(escaped_label)}](<{md_url(url)}>)"
    return f"[{escaped_label}]({_ENTITY_START.sub('&amp;', md_url(url))})"


# an "&" the forum's parser would read as starting a character reference ("&lt;", "&#60;")
_ENTITY_START = re.compile(r"&(?=#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]*;)")


def autolink(url: str, dialect: Dialect) -> str:
    """``url`` shown as itself, linked: ``<url>`` (on Discord no embed, and an e-mail address
    as text, as :func:`discord_link` shows one)."""
    if dialect == "discord":
        return discord_link(url, url)
    return "<" + md_url(url) + ">"


def discord_link(label: str, url: str) -> str:
    """``label`` linking to ``url`` as Discord shows it: a masked link ``[label](<url>)`` (the
    angle brackets suppress the embed; the label made safe by :func:`discord_label`); a URL
    that is its own label as ``<url>`` (a URL as a label would show the whole link as text);
    and an e-mail address as text, since Discord links only http(s) in a masked link."""
    if url[:7].lower() == "mailto:":
        address = escape_text(url[7:], "discord")
        if label in (url, url[7:]):
            return address
        return f"{escape_text(one_line(label), 'discord')} ({address})"
    if label == url:  # shown as written: encoded by the one rule, nothing ends the autolink
        return "<" + encoded_url(url) + ">"
    return f"[{discord_label(label)}](<{md_url(url)}>)"
