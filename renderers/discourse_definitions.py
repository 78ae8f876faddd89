"""Discourse footnote definitions: ``[^n]: [Title](url), p. 12, Section``, at a few levels.

A post defines each footnote it references, once, at its end. Titles are escaped so they cannot
break the definition. :data:`LEVELS` goes from the richest definition to the shortest; every
level keeps every link, so a source stays one click away (``renderers.discourse_fit`` picks the
level a post has room for).
"""

from __future__ import annotations

from functools import lru_cache

from renderers.base import CitationForm
from renderers.escaping import md_text, no_forum_mentions
from renderers.limits import truncate
from renderers.markdown_links import autolink, masked_link
from renderers.markdown_writer import EntryLevel

UPLOAD_SCHEME = "citecast-upload://"
# A definition shows a source's title without its link only where the post could not hold the
# link: when the forum allows more replies in a row the connector lists the source, linked, in a
# post after it (renderers.discourse_spill), so the reader sees this only when it cannot.
LINK_LEFT_OUT = " (link left out to fit the post)"

# richest first; every level keeps every link, so a source stays one click away
LEVELS = (
    EntryLevel(title=300, detail=200, columns=300, highlight=True),
    EntryLevel(title=120, detail=100, columns=120, highlight=False),
    EntryLevel(title=60, detail=0, columns=0, highlight=False),
    EntryLevel(title=30, detail=0, columns=0, highlight=False),
)
SHORTEST = LEVELS[-1]


def placeholder(n: int) -> str:
    """The URL a file upload's link carries until the connector substitutes ``upload://``."""
    return f"{UPLOAD_SCHEME}{n}"


def _text(value: str, limit: int) -> str:
    return no_forum_mentions(md_text(truncate(value, limit)))


@lru_cache(maxsize=4096)  # fitting a post measures the same definitions several times
def definition_body(
    form: CitationForm, level: EntryLevel = LEVELS[0], link: bool = True, masked: bool = True
) -> str:
    """The text of a footnote definition (one line, never cut inside a link).

    ``link=False`` is for a link the post has no room for: the title shows alone, noted as such
    (an upload placeholder is short and always kept). ``masked=False`` (``masked_links:
    false``): each link is its text, then the bare ``<url>``.
    """
    title = _text(form.title, level.title)
    url = level.url(form.url) if form.url else None
    if form.kind in ("link", "download") and url:
        head = _linked(title, url, masked) if link else title + LINK_LEFT_OUT
    elif form.kind == "attachment":
        name = _text(form.filename or form.title, level.title)
        head = f"[{name}|attachment]({placeholder(form.n)})"
        if form.title != form.filename:
            head = f"{title}: {head}"
    elif form.kind == "name" and form.filename and form.filename != form.title:
        head = f"{title} ({_text(form.filename, level.title)})"
    else:
        head = title
    parts = [head]
    if form.detail and level.detail:
        parts.append(_text(form.detail, level.detail))
    record = form.record
    if record and record.columns and level.columns:
        columns = "; ".join(f"{k}: {v}" for k, v in record.columns)
        parts.append(_text(columns, level.columns))
    if record and record.action and link:
        label = _text(record.action.label, min(level.title, 80))
        parts.append(_linked(label, record.action.url, masked))
    if form.weak:
        parts.append("weak support?")
    return ", ".join(parts)


def _linked(escaped_label: str, url: str, masked: bool) -> str:
    if masked:
        return masked_link(escaped_label, url, "discourse")
    return f"{escaped_label} {autolink(url, 'discourse')}"


def shorter_definitions(form: CitationForm, masked: bool = True) -> list[str]:
    """A footnote's definitions after its fullest, richest first: each shorter level with its
    link, then the shortest title alone (for a post with no room for the link)."""
    found = [definition_body(form, level, masked=masked) for level in LEVELS[1:]]
    found.append(definition_body(form, SHORTEST, link=False))
    return list(dict.fromkeys(found))


def link_length(form: CitationForm) -> int:
    """How long the links of a source's definition are (the longest give way first)."""
    action = form.record.action.url if form.record and form.record.action else ""
    return len(form.url or "") + len(action)
