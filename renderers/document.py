"""One parsed answer, ready for any channel: block tokens, cited numbers and citation forms.

Every renderer works in two steps so the streaming renderer can reuse the first one:
``block(token, forms) -> fragment`` for each top-level block, then ``assemble(fragments, doc)``
for the payload. :class:`Document` holds what both steps share.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from bot.markdown import Token
from bot.models import Answer, Citation
from renderers.attachable import numbered_name
from renderers.base import Capabilities, CitationForm, RenderContext, citation_form, is_record
from renderers.distinct import told_apart
from renderers.escaping import safe_url, visible


def cited_numbers(tokens: Iterable[Token]) -> list[int]:
    """Citation numbers in ``tokens`` in order of first appearance."""
    seen: dict[int, None] = {}
    _collect_citations(tokens, seen)
    return list(seen)


def without_citations(tokens: list[Token]) -> list[Token]:
    """``tokens`` without their citations: a link's text, whose citations follow the link (a
    citation cannot be a link inside a link, nor a footnote inside a link label)."""
    out: list[Token] = []
    for token in tokens:
        if token.get("type") == "citation":
            continue
        if token.get("children"):
            token = {**token, "children": without_citations(token["children"])}
        out.append(token)
    return out


def _collect_citations(tokens: Iterable[Token], seen: dict[int, None]) -> None:
    for token in tokens:
        if token["type"] == "citation":
            seen.setdefault(int(token["attrs"]["n"]), None)
        else:
            children = token.get("children")
            if children:
                _collect_citations(children, seen)


def table_rows(table: Token, markdown: bool = False) -> list[list[list[Token]]]:
    """The inline tokens of every cell of ``table``, row by row, the header row first (as
    :func:`cell_tokens` shows them, unless they are written back as ``markdown`` table cells)."""
    rows: list[list[list[Token]]] = []
    for part in table.get("children") or []:
        row_tokens = [part] if part["type"] == "table_head" else part.get("children") or []
        for row in row_tokens:
            cells = [c.get("children") or [] for c in row["children"]]
            rows.append(cells if markdown else [cell_tokens(cell) for cell in cells])
    return rows


def cell_tokens(cell: list[Token]) -> list[Token]:
    """A table cell's inline tokens with ``\\|`` in its code shown as ``|``.

    A pipe in a table cell is written ``\\|``, inside code too (GFM), and the parser keeps the
    backslash in code spans: ``ps aux \\| grep x`` is the code ``ps aux | grep x``.
    """
    for token in cell:  # a loop, not any(): this runs for every cell of every table
        if token["type"] == "codespan" and "\\|" in token.get("raw", ""):
            break
    else:
        return cell
    return [
        {**t, "raw": str(t.get("raw", "")).replace("\\|", "|")} if t["type"] == "codespan" else t
        for t in cell
    ]


def has_links(rows: list[list[list[Token]]]) -> bool:
    """True when some cell holds a link (or image) to a URL a channel may show: a table drawn
    as a monospace block would show only its text, and the URL would be lost."""
    return any(_links_in(cell) for row in rows for cell in row)


def _links_in(tokens: Iterable[Token]) -> bool:
    for token in tokens:
        if token["type"] in ("link", "image"):
            if safe_url(str((token.get("attrs") or {}).get("url") or "")) is not None:
                return True
        elif token.get("children") and _links_in(token["children"]):
            return True
    return False


def empty_label(token: Token, url: str | None) -> str:
    """What a link or image with no text to show is labelled: an image "image", a link its
    address (a label of citations alone, "[[^1]](url)", loses them to the text after it)."""
    return "image" if token["type"] == "image" else url or ""


def list_shows_text(token: Token) -> bool:
    """True when some item of the list ``token`` shows text.

    A list of empty items is left out on every channel: empty bullets show nothing, and numbers
    with nothing after them ("8443.") say nothing either.
    """
    return any(_shows_text(item.get("children") or []) for item in token["children"])


def shows_text(rows: list[list[list[Token]]]) -> bool:
    """True when some cell shows text (cell by cell: usually the first header cell decides)."""
    return any(_shows_text(cell) for row in rows for cell in row)


def _shows_text(tokens: list[Token]) -> bool:
    """``visible(plain_text(tokens))``, stopping at the first token that shows something: every
    channel asks this of every list and table, whose first words usually answer it."""
    for token in tokens:
        if token["type"] == "citation":
            return True  # written "[n]"
        if token["type"] in ("softbreak", "linebreak"):
            continue
        if "children" in token:
            if _shows_text(token["children"]):
                return True
        elif visible(str(token.get("raw", ""))):
            return True
    return False


def decide_forms(
    citations: Iterable[Citation], caps: Capabilities, context: RenderContext
) -> dict[int, CitationForm]:
    """The form of every citation, in order of ``n`` (attachments counted as they are decided).

    A file counts once against ``Capabilities.max_files`` however many of its passages are
    cited: a citation of a file already attached travels with that same file, under the name
    and type it was first attached with (the file is sent once, so every reference names it so).
    Two different files of one name travel as ``guide.pdf`` and ``guide (2).pdf``.
    """
    forms: dict[int, CitationForm] = {}
    attached: dict[str, CitationForm] = {}
    for citation in sorted(citations, key=lambda c: c.n):
        path = citation.source.path
        others = len(attached) - (path in attached) if path else len(attached)
        form = citation_form(citation, caps, context, files_used=others)
        if form.kind == "attachment" and form.path:
            file = form.path
            first = attached.get(file)
            if first is not None:
                form = replace(form, filename=first.filename, media_type=first.media_type)
            else:
                taken = {f.filename for f in attached.values()}
                form = replace(form, filename=_unused_name(form.filename or "attachment", taken))
                attached[file] = form
        forms[citation.n] = form
    return forms


def _unused_name(name: str, taken: set[str | None]) -> str:
    """``name``, or ``stem (2).ext``, ``stem (3).ext``… when another file already has it (its
    stem shortened when the number would take the name past the longest a file travels under:
    :func:`renderers.attachable.numbered_name`)."""
    candidate, k = name, 1
    while candidate in taken:
        k += 1
        candidate = numbered_name(name, k)
    return candidate


def form_key(caps: Capabilities, citations: Iterable[Citation]) -> tuple[Any, ...]:
    """The capability fields the forms of ``citations`` depend on (equal keys, equal forms).

    The file limits matter only when a source has a file that could be attached, and buttons
    only when a source is a record (its action may show as one); without either, every channel
    shares one decision (render_all decides forms once per key).
    """
    citations = tuple(citations)
    if any(citation.source.path for citation in citations):
        return (caps.native_files, caps.max_files, caps.max_file_bytes, caps.media_types,
                caps.buttons)  # fmt: skip
    if any(is_record(citation.source) for citation in citations):
        return (caps.buttons,)
    return ()


@dataclass(frozen=True)
class Document:
    """The answer, its citation forms, and which of them the source list shows."""

    answer: Answer
    caps: Capabilities
    context: RenderContext
    forms: Mapping[int, CitationForm]
    cited: tuple[int, ...]
    seed: str = ""

    @cached_property  # every channel reads it several times while assembling its payload
    def listed(self) -> tuple[CitationForm, ...]:
        """Forms shown in the source list (``show``: cited, all or none), in order of ``n``."""
        if self.context.show == "none":
            return ()
        if self.context.show == "all":
            return tuple(self.forms[n] for n in sorted(self.forms))
        return tuple(self.forms[n] for n in sorted(set(self.cited)) if n in self.forms)

    @cached_property
    def entries(self) -> tuple[CitationForm, ...]:
        """``listed`` as a source list without quotes shows them: two entries that would read
        the same carry the start of their quotes in ``detail`` (:mod:`renderers.distinct`)."""
        return told_apart(self.listed, self._passage)

    @cached_property
    def quoted_entries(self) -> tuple[CitationForm, ...]:
        """``listed`` as a source list that shows every quote does (web, email HTML): only
        entries of the same quote are told apart, by their passages."""
        return told_apart(self.listed, self._passage, quotes_shown=True)

    def _passage(self, n: int) -> str | None:
        citation = self.answer.citation(n)
        return None if citation is None else citation.source.text

    @property
    def attachments(self) -> tuple[CitationForm, ...]:
        """Listed citations whose file travels with the message (a file may have several)."""
        return tuple(f for f in self.listed if f.kind == "attachment")

    @property
    def files(self) -> list[dict[str, Any]]:
        """Payload file entries ``{n, path, filename, media_type}``: each attached file once,
        under the first listed citation of it."""
        first: dict[str | None, CitationForm] = {}
        for form in self.attachments:
            first.setdefault(form.path, form)
        return [file_entry(form) for form in first.values()]


def file_entry(form: CitationForm) -> dict[str, Any]:
    """The payload entry ``{n, path, filename, media_type}`` of an attachment form."""
    return {
        "n": form.n,
        "path": form.path,
        "filename": form.filename,
        "media_type": form.media_type,
    }


def seed(text: str, context: RenderContext) -> str:
    """What per-answer ids (web anchors) derive from: the turn id and the first line.

    The first line is final as soon as any block is complete, so a streamed render and a
    one-shot render of the same answer agree.
    """
    newline = text.find("\n")
    first = text if newline < 0 else text[: newline + 1]
    return f"{context.turn_id or ''}\x00{first}"
