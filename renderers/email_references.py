"""The email's source entries, and how much of each the HTML part has room for.

A source's title, section, file name or record columns may be as long as a document makes them,
and a URL as long as a deep link or a signed link gets. The HTML part has a byte budget
(``Capabilities.max_chars``, 100 KB), so its entries come at one of a few :data:`LEVELS`, richest
first, as Discord's and Discourse's do: the quotes go, then titles and details get shorter and a
deep link loses its quote highlight, then a link too long for the level shows as the title with
"(link too long to show)". The text part has no budget: it lists every entry at the richest
level, titles shortened like every channel's, and every link whole.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.deeplinks import without_text_fragment
from bot.models import RecordAction
from renderers.base import CitationForm
from renderers.escaping import one_line
from renderers.limits import truncate
from renderers.quote_text import quote_plain

QUOTE_CHARS = 300
MARKER_TITLE_CHARS = 120
"""A citation marker's tooltip (its ``title`` attribute): the entry it points at has the rest."""
MARKER_LINK_CHARS = 1000
"""A marker links its source directly up to this length; a longer URL is written once, in the
source list, and the marker points at that entry (``#ref-n``): an answer citing a source with a
2 KB URL sixty times would otherwise carry it sixty times."""


@dataclass(frozen=True)
class EmailLevel:
    """How much of each source entry there is room for: text lengths in characters (0 leaves
    the part out), whether quotes show, whether a deep link keeps its quote highlight, and the
    longest URL still linked (``None``: any)."""

    quotes: bool
    title: int
    detail: int
    columns: int
    highlight: bool
    link: int | None


# richest first; the text part uses the first, without its quotes
LEVELS = (
    EmailLevel(quotes=True, title=300, detail=300, columns=1000, highlight=True, link=None),
    EmailLevel(quotes=False, title=300, detail=300, columns=1000, highlight=True, link=None),
    EmailLevel(quotes=False, title=120, detail=100, columns=200, highlight=False, link=2000),
    EmailLevel(quotes=False, title=60, detail=0, columns=0, highlight=False, link=500),
)
TEXT_LEVEL = LEVELS[1]


@dataclass(frozen=True)
class Reference:
    """Template data of one reference (attributes, so jinja2 finds them on the first try)."""

    n: int
    title: str
    url: str | None
    detail: str
    note: str
    weak: bool
    quote: str | None
    columns: str
    action: RecordAction | None
    too_long: bool = False  # a link left out for its length: the title says so


def reference(form: CitationForm, quotes: bool, level: EmailLevel = LEVELS[0]) -> Reference:
    """Template data of one reference at ``level`` (``quotes``: show the citation's quote)."""
    note = ""
    # a file without a title is called by its name: "notes.md (attached)", said once
    named = form.filename if form.filename and form.filename != form.title else ""
    if form.kind == "attachment":
        note = f"attached: {named}" if named else "attached"
    elif form.kind == "download":
        note = f"download: {named}" if named else "download"
    elif form.kind == "name" and form.filename and form.filename != form.title:
        note = form.filename
    url = form.url if form.kind in ("link", "download") else None
    if url is not None and not level.highlight:
        url = without_text_fragment(url)
    too_long = url is not None and level.link is not None and len(url) > level.link
    record = form.record
    action = record.action if record else None
    if action is not None and level.link is not None and len(action.url) > level.link:
        action = None  # the text part keeps it
    elif action is not None:
        action = RecordAction(truncate(one_line(action.label), 80), action.url)
    columns = "; ".join(f"{k}: {v}" for k, v in record.columns) if record else ""
    quoted = quotes and level.quotes and form.quote
    # every text on one line (a quote is already): the text part starts an entry with "[n]" at
    # a line's start, so a line break in a section or a column could write an entry of its own
    return Reference(
        n=form.n,
        title=truncate(one_line(form.title), level.title),
        url=None if too_long else url,
        detail=truncate(one_line(form.detail), level.detail) if level.detail else "",
        note=truncate(one_line(note), level.title),
        weak=form.weak,
        quote=truncate(quote_plain(form.quote), QUOTE_CHARS) if quoted and form.quote else None,
        columns=truncate(one_line(columns), level.columns) if level.columns else "",
        action=action,
        too_long=too_long,
    )
