"""The email renderer: a multipart reply (plain text + HTML with inline CSS) and attachments.

Payload: ``{"subject", "text", "html", "attachments": [{n, path, filename, media_type}],
"headers"}``. Both parts come from jinja2 templates (``templates/email.*.j2``; HTML with
autoescape), the answer body is HTML from the shared tree walker with inline styles and passes
nh3 (style attributes allowed: they only come from our writer and templates, since raw HTML in
the answer is shown as text). Numbered references link each source; files without a public URL
are attached within ``Capabilities.max_files``/``max_file_bytes``, each under one name in its
part and its entry (``renderers.email_file_names``). The HTML part stays under
``Capabilities.max_chars`` bytes as a mail client decodes it (100 KB with CRLF line ends,
:func:`renderers.email_html.fit_html`); the text part always carries the whole answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.markdown import Token
from renderers.base import EMPTY_ANSWER, CitationForm, RenderContext
from renderers.document import Document
from renderers.email_file_names import email_file_names, with_email_file_name
from renderers.email_html import MAX_REFERENCES, STYLES, fit_html, templates
from renderers.email_references import MARKER_LINK_CHARS, MARKER_TITLE_CHARS, TEXT_LEVEL, reference
from renderers.email_subject import subject_for
from renderers.escaping import html_text, text_url, visible
from renderers.glue import WORD_JOINER
from renderers.html_writer import HtmlWriter
from renderers.limits import truncate
from renderers.text_writer import TextWriter

CHANNEL = "email"


_SUP = "font-size:11px;line-height:0;"


def marker(form: CitationForm, n: int) -> str:
    return f"[{n}?]" if form.weak else f"[{n}]"


class EmailBlocks:
    """Block step: each block as an (html, text) pair."""

    def __init__(self, forms: Mapping[int, CitationForm], listed: bool = True, language: str = ""):
        self._forms = forms
        self._listed = listed  # False under ``show: none``: no references to point into
        self._html = HtmlWriter(self.cite_html, STYLES, forms, language=language)
        self._text = TextWriter(self.cite_text, forms)
        self._cited: dict[int, str] = {}  # a source cited again is written the same way

    def cite_html(self, n: int) -> str:
        cached = self._cited.get(n)
        if cached is not None:
            return cached
        form = self._forms.get(n)
        if form is None:
            return ""
        # the address as the text part writes it (text_url): both parts link one URL
        href = form.url if form.url and form.kind in ("link", "download") else f"#ref-{n}"
        if len(href) > MARKER_LINK_CHARS and self._listed:
            href = f"#ref-{n}"  # its entry links it, once (renderers.email_references)
        tip = html_text(truncate(form.title, MARKER_TITLE_CHARS))
        if href.startswith("#") and not self._listed:
            markup = f'<sup style="{_SUP}">{WORD_JOINER}{marker(form, n)}</sup>'
        else:
            markup = (
                # the joiner holds the number to the word before it (renderers.glue)
                f'<sup style="{_SUP}">{WORD_JOINER}<a href="{html_text(text_url(href))}" '
                f'title="{tip}" style="color:#0b62d6;text-decoration:none;">'
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
    return EmailBlocks(forms, listed=context.show != "none", language=context.language)


def assemble(fragments: list[tuple[str, str]], doc: Document) -> dict[str, Any]:
    """The email payload from rendered blocks."""
    listed = doc.listed
    # the HTML part lists at most MAX_REFERENCES (it has a size budget); the text part always
    # carries every reference, so no marker in it points at nothing
    more = max(0, len(listed) - MAX_REFERENCES)
    more_url = doc.context.full_list_url()
    text_body = "\n\n".join(t for _, t in fragments if visible(t))
    subject = subject_for(doc, fragments)
    htmls = [h for h, _ in fragments if h]
    if not text_body or not htmls:
        # never a blank mail: an answer with nothing to show says so, as the chat channels do
        text_body = text_body or EMPTY_ANSWER
        htmls = htmls or [f'<p dir="auto" style="{STYLES["p"]}">{EMPTY_ANSWER}</p>']
    # entries that would read the same are told apart: in the HTML part by its quotes (or
    # their passages), in the text part and a list without quotes by the quotes' first words;
    # each attached file has one name, in its part and in its entry (renderers.email_file_names)
    names = email_file_names(doc.forms, doc.answer)
    entries = [with_email_file_name(f, names, doc.answer) for f in doc.entries]
    quoted_entries = [with_email_file_name(f, names, doc.answer) for f in doc.quoted_entries]
    every = [reference(f, False, TEXT_LEVEL) for f in entries]
    text = templates().get_template("email.txt.j2").render(
        body=text_body, references=every, more=0,
        more_url=more_url,
    )  # fmt: skip
    html_out = fit_html(
        subject, htmls, entries, quoted_entries, more, more_url, doc.caps.max_chars,
        doc.context.language,
    )  # fmt: skip
    headers = {"Auto-Submitted": "auto-replied", "X-Auto-Response-Suppress": "All"}
    return {
        "subject": subject,
        "text": text.strip() + "\n",
        "html": html_out,
        "attachments": [{**f, "filename": names.get(f["path"], f["filename"])} for f in doc.files],
        "headers": headers,
    }
