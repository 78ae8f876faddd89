"""The email renderer: a multipart reply (plain text + HTML with inline CSS) and attachments.

Payload: ``{"subject", "text", "html", "attachments": [{n, path, filename, media_type}],
"headers"}``. Both parts come from jinja2 templates (``templates/email.*.j2``; HTML with
autoescape), the answer body is HTML from the shared tree walker with inline styles and passes
nh3 (style attributes allowed: they only come from our writer and templates, since raw HTML in
the answer is shown as text). Numbered references link each source; files without a public URL
are attached within ``Capabilities.max_files``/``max_file_bytes``. The HTML stays under
``Capabilities.max_chars`` bytes (100 KB): quotes go first, then the body is shortened (the text
part always carries the whole answer).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Set
from dataclasses import dataclass
from functools import cache
from typing import Any

import jinja2
import nh3
from markupsafe import Markup

from bot.markdown import Token
from bot.models import RecordAction
from renderers.base import EMPTY_ANSWER, CitationForm, RenderContext, shown
from renderers.document import Document
from renderers.escaping import html_text, one_line, text_url, visible
from renderers.glue import WORD_JOINER
from renderers.html_writer import HtmlWriter
from renderers.limits import truncate
from renderers.quote_text import quote_plain
from renderers.text_writer import TextWriter
from renderers.web import ALLOWED_ATTRIBUTES, ALLOWED_TAGS

CHANNEL = "email"
MAX_REFERENCES = 200
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


@cache
def _environment() -> jinja2.Environment:
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


_SUP = "font-size:11px;line-height:0;"


def marker(form: CitationForm, n: int) -> str:
    return f"[{n}?]" if form.weak else f"[{n}]"


class EmailBlocks:
    """Block step: each block as an (html, text) pair."""

    def __init__(self, forms: Mapping[int, CitationForm], listed: bool = True):
        self._forms = forms
        self._listed = listed  # False under ``show: none``: no references to point into
        self._html = HtmlWriter(self.cite_html, STYLES)
        self._text = TextWriter(self.cite_text)
        self._cited: dict[int, str] = {}  # a source cited again is written the same way

    def cite_html(self, n: int) -> str:
        cached = self._cited.get(n)
        if cached is not None:
            return cached
        form = self._forms.get(n)
        if form is None:
            return ""
        href = form.url if form.url and form.kind in ("link", "download") else f"#ref-{n}"
        if href.startswith("#") and not self._listed:
            markup = f'<sup style="{_SUP}">{WORD_JOINER}{marker(form, n)}</sup>'
        else:
            markup = (
                # the joiner holds the number to the word before it (renderers.glue)
                f'<sup style="{_SUP}">{WORD_JOINER}<a href="{html_text(href)}" '
                f'title="{html_text(form.title)}" style="color:#0b62d6;text-decoration:none;">'
                f"{marker(form, n)}</a></sup>"
            )
        self._cited[n] = markup
        return markup

    def cite_text(self, n: int) -> str:
        form = self._forms.get(n)
        return marker(form, n) if form else ""

    def __call__(self, token: Token) -> tuple[str, str]:
        return self._html.block(token), self._text.block(token)


def block_renderer(
    forms: Mapping[int, CitationForm], context: RenderContext, seed: str
) -> EmailBlocks:
    """The block step (``seed`` is unused)."""
    return EmailBlocks(forms, listed=context.show != "none")


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


def reference(form: CitationForm, quotes: bool) -> Reference:
    """Template data of one reference."""
    note = ""
    # a file without a title is called by its name: "notes.md (attached)", said once
    named = form.filename if form.filename and form.filename != form.title else ""
    if form.kind == "attachment":
        note = f"attached: {named}" if named else "attached"
    elif form.kind == "download":
        note = f"download: {named}" if named else "download"
    elif form.kind == "name" and form.filename and form.filename != form.title:
        note = form.filename
    record = form.record
    return Reference(
        n=form.n,
        title=one_line(form.title),
        url=form.url if form.kind in ("link", "download") else None,
        detail=form.detail,
        note=one_line(note),
        weak=form.weak,
        quote=truncate(quote_plain(form.quote), 300) if quotes and form.quote else None,
        columns="; ".join(f"{k}: {v}" for k, v in record.columns) if record else "",
        action=record.action if record else None,
    )


# a citation marker as the text part writes it ("[3]", "[3?]"), with the space before it
# (a no-break space when it holds the marker to its word: renderers.glue)
_MARKER = re.compile(r"[ \u00a0]?\[(\d+)\??\]")
# the address the text part writes after a link's label ("the guide <https://…>"): a subject
# shows the words, and a mail client shows no link there
_LINK_TARGET = re.compile(r" <(?:https?://|mailto:)[^<>\s]*>")
_QUOTE_MARKS = re.compile(r"^(?:> ?)+")
# a code span as the text part writes it (renderers.text_writer.code_span): a run of backticks,
# the code (padded with a space where it starts or ends with a backtick), the same run again.
# A run longer than real code needs is left as written: an opening run that nothing closes
# costs a scan of the rest of the line, and a line can hold one such run per length.
_CODE_SPAN = re.compile(r"(?<!`)(`{1,16})(?!`)(.*?[^`])\1(?!`)")


def subject_for(doc: Document, text: str) -> str:
    """The context's subject, or the first line of the answer's text part that has words,
    without its quote marks, citation markers and link addresses."""
    if doc.context.subject:
        # the incoming mail's subject: a bidi override in it would reorder the reply's
        return truncate(one_line(shown(doc.context.subject)), 200)
    for line in text.split("\n"):
        # an answer may open with a quote ("> …"), a rule or a heading of markers alone
        first = _outside_code(one_line(_QUOTE_MARKS.sub("", line)), doc.forms.keys())
        # the backticks still guard the code's own "-" or "#" from this strip
        first = _unwrap_code(first.strip("=-#* "))
        if visible(first):
            return truncate(first, 78)
    return "Your answer"


def _outside_code(line: str, cited: Set[int]) -> str:
    """``line`` without its link addresses and its citation markers ("[1]" in a subject line
    points at nothing: the references are in the body), both left alone inside code
    ("`arr[1]`")."""

    def plain(part: str) -> str:
        part = _LINK_TARGET.sub("", part)
        return _MARKER.sub(lambda m: "" if int(m.group(1)) in cited else m.group(0), part)

    out, start = [], 0
    for match in _CODE_SPAN.finditer(line):
        out += [plain(line[start : match.start()]), match.group(0)]
        start = match.end()
    return "".join([*out, plain(line[start:])])


def _unwrap_code(line: str) -> str:
    """Code spans as their code: a subject line shows no markup ("Install it with pip install
    citecast."), as it shows bold or a link's label without theirs."""

    def code(match: re.Match[str]) -> str:
        inner = match.group(2)
        padded = len(inner) > 2 and inner.startswith(" ") and inner.endswith(" ")
        return inner[1:-1] if padded and inner.strip(" ") else inner

    return _CODE_SPAN.sub(code, line)


def assemble(fragments: list[tuple[str, str]], doc: Document) -> dict[str, Any]:
    """The email payload from rendered blocks."""
    listed = doc.listed
    # the HTML part lists at most MAX_REFERENCES (it has a size budget); the text part always
    # carries every reference, so no marker in it points at nothing
    more = max(0, len(listed) - MAX_REFERENCES)
    more_url = doc.context.full_list_url()
    text_body = "\n\n".join(t for _, t in fragments if visible(t))
    subject = subject_for(doc, text_body)
    htmls = [h for h, _ in fragments if h]
    if not text_body or not htmls:
        # never a blank mail: an answer with nothing to show says so, as the chat channels do
        text_body = text_body or EMPTY_ANSWER
        htmls = htmls or [f'<p dir="auto" style="{STYLES["p"]}">{EMPTY_ANSWER}</p>']
    # entries that would read the same are told apart: in the HTML part by its quotes (or
    # their passages), in the text part and a list without quotes by the quotes' first words
    entries, quoted_entries = doc.entries, doc.quoted_entries
    quoted = [reference(f, True) for f in quoted_entries[:MAX_REFERENCES]]
    if entries is quoted_entries:
        # the usual answer, nothing told apart: the same references (the text shows no quote)
        every = quoted + [reference(f, True) for f in entries[MAX_REFERENCES:]]
    else:
        every = [reference(f, False) for f in entries]
    text = _environment().get_template("email.txt.j2").render(
        body=text_body, references=every, more=0,
        more_url=more_url,
    )  # fmt: skip
    budget = doc.caps.max_chars
    # the body is sanitized once; only the shortening fallback (over budget) sanitizes again
    body = _body(htmls)
    html_out = _html(subject, body, quoted, more, more_url, False)
    if len(html_out.encode("utf-8")) >= budget:
        # over budget (rare): the quotes go first, then the body is shortened
        shown = entries[:MAX_REFERENCES]
        plain = [reference(f, False) for f in shown] if any(f.quote for f in shown) else quoted
        html_out = _html(subject, body, plain, more, more_url, False)
        keep = len(htmls)
        while keep > 0 and len(html_out.encode("utf-8")) >= budget:
            keep = keep * 3 // 4
            html_out = _html(subject, _body(htmls[:keep]), plain, more, more_url, True)
    headers = {"Auto-Submitted": "auto-replied", "X-Auto-Response-Suppress": "All"}
    return {
        "subject": subject,
        "text": text.strip() + "\n",
        "html": html_out,
        "attachments": doc.files,
        "headers": headers,
    }


def _body(blocks: list[str]) -> Markup:
    return Markup(sanitize("\n".join(blocks)))  # noqa: S704 - sanitized by nh3 right here


def _html(
    subject: str,
    body: Markup,
    refs: list[Reference],
    more: int,
    more_url: str | None,
    shortened: bool,
) -> str:
    # the shared turn page shows the whole answer above its source list
    answer_url = more_url.split("#", 1)[0] if more_url else None
    return _environment().get_template("email.html.j2").render(
        subject=subject, body=body, references=refs, more=more,
        more_url=more_url, answer_url=answer_url, shortened=shortened,
    )  # fmt: skip
