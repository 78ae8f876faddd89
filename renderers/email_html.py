"""The email's HTML part: its inline styles, templates, nh3 pass, and the fit in its budget.

``fit_html`` keeps the part under ``Capabilities.max_chars`` bytes (100 KB) as it arrives (CRLF
line ends, :func:`delivered_bytes`) whatever the sources hold: quotes go first, then the body is
shortened, by whole blocks and then into the first block that does not fit
(``renderers.email_cut``), so it always keeps the answer's start when there is room for it (the
text part always carries the whole answer). The answer's HTML comes from
:mod:`renderers.email`'s tree walker with these styles.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import jinja2
import nh3
from markupsafe import Markup

from renderers.base import CitationForm
from renderers.email_cut import ITEM, SENTENCE, WORD, cuts, piece
from renderers.email_references import LEVELS, Reference, reference
from renderers.escaping import text_url
from renderers.limits import EMAIL_MAX_HTML_BYTES
from renderers.web import ALLOWED_ATTRIBUTES, ALLOWED_TAGS

# The HTML part lists at most this many sources (the text part lists them all): the fewest
# bytes an entry takes (an empty title, no link: the list item's tag and style alone, 109) into
# the largest budget. More could never fit, so the cap follows from the budget alone: fewer
# sources are listed only when the budget cuts them (a fixed 200 said "and 1 more" at 69 KB).
_SMALLEST_ENTRY_BYTES = 100
MAX_REFERENCES = EMAIL_MAX_HTML_BYTES // _SMALLEST_ENTRY_BYTES
STYLES = {
    "p": "margin:0 0 12px;",
    "h1": "font-size:20px;margin:18px 0 10px;",
    "h2": "font-size:17px;margin:16px 0 8px;",
    "h3": "font-size:15px;margin:14px 0 6px;",
    "h4": "font-size:15px;margin:12px 0 6px;",
    "h5": "font-size:14px;margin:12px 0 6px;",
    "h6": "font-size:14px;margin:12px 0 6px;",
    "blockquote": "margin:0 0 12px;padding:4px 12px;border-left:3px solid #d0d7de;color:#57606a;",
    "pre": "margin:0 0 12px;padding:10px 12px;background:#f6f8fa;border-radius:6px;"
    "overflow:auto;font-size:13px;",
    "code": "font-family:SFMono-Regular,Consolas,Menlo,monospace;font-size:13px;",
    "table": "border-collapse:collapse;margin:0 0 12px;font-size:14px;",
    "th": "border:1px solid #d0d7de;padding:4px 8px;background:#f6f8fa;text-align:left;",
    "td": "border:1px solid #d0d7de;padding:4px 8px;",
    "ul": "margin:0 0 12px;padding-left:22px;",
    "ol": "margin:0 0 12px;padding-left:22px;",
    "a": "color:#0b62d6;",
    "hr": "border:0;border-top:1px solid #d8dee4;margin:16px 0;",
}
_EMAIL_ATTRIBUTES = {tag: {"style"} for tag in ALLOWED_TAGS} | {
    tag: attrs | {"style"} for tag, attrs in ALLOWED_ATTRIBUTES.items()
}


@functools.cache
def templates() -> jinja2.Environment:
    """Templates from the package; ``*.html.j2`` autoescaped, ``*.txt.j2`` plain."""
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("renderers", "templates"),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2",)),
        auto_reload=False,  # packaged templates never change at run time: no stat per render
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.filters["text_url"] = text_url
    return environment


# built once: nh3.clean() converts the allow-lists on every call
_CLEANER = nh3.Cleaner(
    tags=ALLOWED_TAGS,
    attributes=_EMAIL_ATTRIBUTES,
    url_schemes={"http", "https", "mailto"},
    strip_comments=True,
)


def sanitize(markup: str) -> str:
    """nh3 with the web allow-list plus ``style`` attributes."""
    return str(_CLEANER.clean(markup))


def fit_html(
    subject: str,
    htmls: list[str],
    entries: Sequence[CitationForm],
    quoted_entries: Sequence[CitationForm],
    more: int,
    more_url: str | None,
    budget: int,
    language: str = "",
) -> str:
    """The HTML part within ``budget`` bytes, whatever the sources hold: the source list at the
    richest level that fits (renderers.email_references), then the body shortened, and only
    then (a budget tightened in config) the list cut to "and N more". ``language`` marks the
    answer and its sources (``assistant.language``); the email's own words stay English."""
    _html = functools.partial(_page, language=language)

    def fits(markup: str) -> bool:
        return delivered_bytes(markup) < budget

    # the body is sanitized once; only the shortening fallback (over budget) sanitizes again
    body = _body(htmls)
    refs: list[Reference] = []
    for level in LEVELS:
        shown = (quoted_entries if level.quotes else entries)[:MAX_REFERENCES]
        refs = [reference(f, True, level) for f in shown]
        html_out = _html(subject, body, refs, more, more_url, False)
        if fits(html_out):
            return html_out
    # the body shortened to the room the list and the note leave it (its bytes once sanitized,
    # which adds to some tags: measured, and the room taken in by what a guess overshot)
    unshown = _html(subject, Markup(""), refs, more, more_url, True)
    room = budget - 1 - delivered_bytes(unshown)
    if room >= 0:
        for _ in range(3):
            html_out = _html(subject, _shortened_body(htmls, room), refs, more, more_url, True)
            overshoot = delivered_bytes(html_out) - (budget - 1)
            if overshoot <= 0:
                return html_out
            room = max(0, room - overshoot)
        return unshown
    # the list alone is over the budget: the answer's start in up to half the room a list of
    # none leaves (a reply of sources only does not answer), then as many entries as fit, the
    # rest counted (linked to the whole list when the deployment has one; the text part lists
    # them all anyway)
    bare = _html(subject, Markup(""), [], more + len(refs), more_url, True)
    spare = budget - 1 - delivered_bytes(bare)
    start = _shortened_body(htmls, spare // 2) if spare > 0 else Markup("")
    if not fits(_html(subject, start, [], more + len(refs), more_url, True)):
        start = Markup("")
    low, high = 0, len(refs)
    while low < high:
        mid = (low + high + 1) // 2
        cut = _html(subject, start, refs[:mid], more + len(refs) - mid, more_url, True)
        low, high = (mid, high) if fits(cut) else (low, mid - 1)
    return _html(subject, start, refs[:low], more + len(refs) - low, more_url, True)


# where a table that did not fit was left out whole (the note below the answer says where the
# whole answer is)
TABLE_LEFT_OUT = (
    f'<p dir="auto" style="{STYLES["p"]}color:#57606a;">(A table is left out here.)</p>'
)


def _shortened_body(htmls: list[str], room: int) -> Markup:
    """As many whole blocks as fit in ``room`` bytes, then the start of the next one: a list or
    a paragraph too long to fit whole is cut inside (renderers.email_cut) rather than dropped,
    which left a one-block answer with an empty body."""
    used, keep = 0, 0
    for block in htmls:
        size = _size(sanitize(block)) + (_LINE_BREAK if keep else 0)  # joined by a line break
        if used + size > room:
            break
        used, keep = used + size, keep + 1
    blocks = htmls[:keep]
    if keep < len(htmls):
        start = _start_of(htmls[keep], room - used - (_LINE_BREAK if keep else 0))
        if start:
            blocks.append(start)
    return _body(blocks)


def _start_of(block: str, room: int) -> str:
    """The start of ``block`` that fits ``room`` bytes and keeps most of it at the cleanest
    cut: after a list item or table row unless a sentence end keeps twice as much, at a
    sentence end unless a space does (a word cut ends with an ellipsis); "" when none fits."""
    every = cuts(block)
    sizes: dict[int, int] = {}

    def shown(i: int) -> str:
        cut = every[i]
        return piece(block, cut) + (TABLE_LEFT_OUT if cut.drops_table else "")

    def size(i: int) -> int:
        if i not in sizes:
            sizes[i] = _size(sanitize(shown(i)))
        return sizes[i]

    # pieces grow with the cut's position: the cuts that fit, by bisection over all of them
    low, high = 0, len(every)
    while low < high:
        mid = (low + high) // 2
        low, high = (mid + 1, high) if size(mid) <= room else (low, mid)
    chosen: int | None = None
    for level in (ITEM, SENTENCE, WORD):
        last = next((i for i in reversed(range(low)) if every[i].level <= level), None)
        if last is None or size(last) > room:
            continue
        if chosen is None or size(last) > 2 * size(chosen):
            chosen = last
    return shown(chosen) if chosen is not None else ""


def delivered_bytes(markup: str) -> int:
    """The bytes of ``markup`` as the HTML part arrives, which the budget is for: UTF-8, each
    line break a CRLF (a text part's line ends on the wire, RFC 2046, whatever the transfer
    encoding; a mail client decodes them so), and one after the last line if it has none (the
    message adds it). Counted with LF ends, a 100 KB part arrived 100,314 bytes long."""
    size = _size(markup)
    if markup and not markup.endswith(("\n", "\r")):
        size += _LINE_BREAK
    return size


# a line break as it travels: CRLF
_LINE_BREAK = 2


def _size(markup: str) -> int:
    """The bytes of ``markup`` with CRLF line ends (no line break added at its end)."""
    data = markup.encode("utf-8")
    both = data.count(b"\r\n")
    # a lone LF or CR travels as CRLF: one byte more each
    return len(data) + data.count(b"\n") - both + data.count(b"\r") - both


def _body(blocks: list[str]) -> Markup:
    return Markup(sanitize("\n".join(blocks)))  # noqa: S704 - sanitized by nh3 right here


def _page(
    subject: str,
    body: Markup,
    refs: list[Reference],
    more: int,
    more_url: str | None,
    shortened: bool,
    language: str,
) -> str:
    # the shared turn page shows the whole answer above its source list
    answer_url = more_url.split("#", 1)[0] if more_url else None
    return templates().get_template("email.html.j2").render(
        subject=subject, body=body, references=refs, more=more,
        more_url=more_url, answer_url=answer_url, shortened=shortened, language=language,
    )  # fmt: skip
