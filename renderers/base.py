"""The renderer seam: channel capabilities, the render context, and ``citation_form``.

``Capabilities``, each channel's defaults and :func:`capabilities_for` live in
:mod:`renderers.capabilities` and are re-exported here. ``RenderContext`` carries what a
renderer may know about the deployment and the viewer. :func:`citation_form` is the ONE place
deciding how a cited source appears: a link, an attached file, a signed download link, or just
its name.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from bot.bidi_controls import without_bidi_controls
from bot.deeplinks import file_link
from bot.models import Citation, Occurrence, RecordAction, Source
from bot.models import is_safe_url as _is_safe_url
from bot.page_labels import page_label
from renderers.attachable import attachment_name as attachment_name
from renderers.attachable import media_allowed, size_allowed
from renderers.capabilities import DEFAULT_CAPABILITIES as DEFAULT_CAPABILITIES
from renderers.capabilities import DISCOURSE_MIN_MAX_CHARS as DISCOURSE_MIN_MAX_CHARS
from renderers.capabilities import Capabilities as Capabilities
from renderers.capabilities import Markup as Markup
from renderers.capabilities import Streaming as Streaming
from renderers.capabilities import capabilities_for as capabilities_for
from renderers.spaces import one_line
from renderers.url_encoding import encoded_url

# every form decision checks the same few URLs once per channel: remember the verdicts
is_safe_url = functools.lru_cache(maxsize=4096)(_is_safe_url)


def shown(text: str) -> str:
    """``text`` as a renderer may show it: without bidi embedding, override and isolate
    controls and C0/C1 control codes (see :mod:`bot.bidi_controls`), its line ends as line
    feeds (as the markdown parser reads the answer's); every text a form carries passes
    through here."""
    text = without_bidi_controls(text)
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


Show = Literal["cited", "all", "none"]
FormKind = Literal["link", "attachment", "download", "name", "hidden"]

EMPTY_ANSWER = "(The assistant gave an empty answer.)"
"""What a message shows for an answer with no text: chat platforms refuse an empty message, and
Discourse one shorter than its ``min_post_length`` (20 characters by default)."""


@dataclass(frozen=True)
class RenderContext:
    """What a renderer knows about the deployment and the viewer (all optional).

    ``signer(source)`` returns a signed, expiring download URL or None. ``file_size(source)``
    returns the byte size of ``source.path``, read by the connector (renderers do no I/O), or
    None when that file cannot be read: it is then not attached. Without ``file_size`` no size
    is known and none decides.
    ``sources_url`` is a page with the full source list, linked when a limit compacts it; by
    default ``{public_base_url}/turns/{turn_id}`` when both are known. ``language`` is the
    language the answer is written in (``assistant.language``, a checked BCP 47 tag), or "".
    """

    public_base_url: str | None = None
    signer: Callable[[Source], str | None] | None = None
    audience: frozenset[str] = frozenset({"public"})
    show: Show = "cited"
    attach_files: bool = True
    capabilities: Capabilities | None = None
    subject: str | None = None
    weak_below: float = 0.35
    file_size: Callable[[Source], int | None] | None = None
    sources_url: str | None = None
    turn_id: str | None = None
    language: str = ""

    def caps(self, channel: str) -> Capabilities:
        """The capabilities to render ``channel`` with."""
        return self.capabilities or DEFAULT_CAPABILITIES[channel]

    def full_list_url(self) -> str | None:
        """Where the full source list lives, or None."""
        if self.sources_url and is_safe_url(self.sources_url):
            return _link(self.sources_url)
        if self.public_base_url and self.turn_id and is_safe_url(self.public_base_url):
            return _link(f"{self.public_base_url.rstrip('/')}/turns/{self.turn_id}#sources")
        return None


@dataclass(frozen=True)
class RecordForm:
    """How a record citation shows: label, the attributed columns and its action."""

    label: str
    columns: tuple[tuple[str, str], ...]
    action: RecordAction | None
    button: bool


@dataclass(frozen=True)
class OccurrenceForm:
    """How one ``[^n]`` marker of a citation shows (``Citation.occurrences``): the quote its own
    claim is backed by, where it leads (the deep link to that quote, or the signed download
    opening at it; None where the form has no URL), whether that claim is weak, and its
    ``detail``: its own page where the marker knows it (``Occurrence.page``), else the
    citation's ``detail``."""

    quote: str | None
    url: str | None
    weak: bool
    detail: str = ""


@dataclass(frozen=True)
class CitationForm:
    """The decided form of one citation.

    ``kind``: ``link`` (``url`` is the public or deep link), ``attachment`` (the file at
    ``path`` travels with the message as ``filename``), ``download`` (``url`` is a signed link),
    ``name`` (only the title/file name can be shown), ``hidden`` (the viewer may not see it).
    ``occurrences``: one per marker in text order when the citation's markers differ (see
    ``Citation.occurrences``), else empty; the fields above stay the citation's own, for the
    source list.
    """

    n: int
    kind: FormKind
    title: str
    url: str | None = None
    filename: str | None = None
    path: str | None = None
    media_type: str | None = None
    detail: str = ""
    quote: str | None = None
    weak: bool = False
    record: RecordForm | None = None
    occurrences: tuple[OccurrenceForm, ...] = ()

    @property
    def reachable(self) -> bool:
        """True when the viewer can get to the source from the message."""
        return self.kind != "hidden"


def source_detail(source: Source) -> str:
    """``p. 12`` / ``pp. 12–13`` (:func:`bot.page_labels.page_label`) and the section path
    below the title, comma separated."""
    parts: list[str] = []
    pages = page_label(source.page, source.page_end)
    if pages is not None:
        parts.append(pages)
    section = section_below_title(source)
    if section:
        parts.append(section)
    return ", ".join(parts)


def section_below_title(source: Source) -> str | None:
    """The source's section path without a first heading that only repeats its title.

    A guide's top heading is usually its title, or words of it, and a person reads the two side
    by side: "Security model > Signed links" under the title "citecast security model" shows as
    "Signed links", and a section that is just the title shows nothing. The heading's words must
    appear in the title together and whole ("Set" does not repeat "Settings guide").
    """
    if not source.section:
        return None
    section = shown(source.section)  # compared as shown: "Fe\u202ees" is the word "Fees"
    head, _, below = section.partition(" > ")
    if f" {_word_run(head)} " not in f" {_word_run(shown(source.display_title))} ":
        return section
    return below or None


def _word_run(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.casefold()))


def is_record(source: Source) -> bool:
    """True when ``source`` shows as a record (label, columns, action), not as a document."""
    return source.kind == "record" or bool(source.columns) or source.action is not None


def _record_form(citation: Citation, caps: Capabilities) -> RecordForm | None:
    source = citation.source
    if not is_record(source):
        return None
    values = source.columns or {}
    # one line each: a value over several lines (an address) would end a footnote definition
    # or break a source line's indentation
    columns = tuple(
        (shown(name), one_line(shown(values[name]))) for name in citation.columns if name in values
    )
    action = source.action if source.action and is_safe_url(source.action.url) else None
    if not (caps.links or caps.buttons):
        action = None  # it could only be a link
    if action is not None:
        action = RecordAction(shown(action.label), _link(action.url))
    return RecordForm(
        label=shown(source.label or source.display_title),
        columns=columns,
        action=action,
        button=caps.buttons and action is not None,
    )


def citation_form(
    citation: Citation,
    caps: Capabilities,
    context: RenderContext,
    *,
    files_used: int = 0,
) -> CitationForm:
    """Decide how ``citation`` appears on a channel with ``caps`` for ``context``'s viewer.

    Public URL (the deep link when present) -> link; a file without one -> attachment where the
    channel sends files, attachments are wanted, and type/size/count (``files_used``: other
    files already attached) allow (a file ``file_size`` cannot read is never attached); else
    a signed download link when the signer gives one; else its name. Where ``caps.links`` is
    false no form has a URL (a file is still attached; a record's action stays only as a
    button). An attached file with no title or label of its own is titled by the name it
    travels under (:func:`renderers.attachable.attachment_name`), so every channel names it
    once.

    Every text of the form (title, detail, quote, file name, record label, columns and action)
    is without bidi controls (:func:`shown`), and each URL is percent-encoded by the one rule
    (:func:`renderers.url_encoding.encoded_url`: bidi controls, ``\\``, spaces and the rest):
    whatever a document holds, no channel shows text reordered by one or links another page.
    """
    source = citation.source
    weak = citation.support is not None and citation.support < context.weak_below
    common: dict[str, Any] = {
        "n": citation.n,
        "title": shown(source.display_title),
        "detail": source_detail(source),
        "quote": None if citation.quote is None else shown(citation.quote),
        "weak": weak,
        "record": _record_form(citation, caps),
        "filename": None if source.filename is None else shown(source.filename),
    }
    if not source.visible_to(context.audience):
        return CitationForm(n=citation.n, kind="hidden", title="restricted source", weak=weak)
    # a channel that cannot show a clickable link (``links: false``) shows no URL: a source is
    # attached where it can be, else named
    for url in (citation.deep_link, source.url) if caps.links else ():
        if url and is_safe_url(url):
            common["occurrences"] = _occurrence_forms(citation, context, weak, link=True)
            return CitationForm(kind="link", url=_link(url), **common)
    if (
        source.path
        and caps.native_files
        and context.attach_files
        and files_used < caps.max_files
        and media_allowed(source.media_type, caps.media_types)
        and size_allowed(source, context.file_size, caps.max_file_bytes)
    ):
        common["filename"] = attachment_name(source.filename or source.path)
        if not source.title and not source.label and source.filename:
            # called by its file name: by the name it arrives under, so every channel's entry
            # says it once ("report Bcc.pdf (attached)"), not a raw "report\nBcc.pdf" beside it
            common["title"] = common["filename"]
        return CitationForm(
            kind="attachment", path=source.path, media_type=source.media_type, **common
        )
    signed = context.signer(source) if context.signer and caps.links else None
    if signed and is_safe_url(signed):
        signed = signed.strip()
        # at the cited place: a PDF's page, a text file's quoted words (a text fragment)
        common["occurrences"] = _occurrence_forms(citation, context, weak, signed=signed)
        signed = file_link(signed, source, citation.quote)
        return CitationForm(kind="download", url=encoded_url(signed), **common)
    common["occurrences"] = _occurrence_forms(citation, context, weak)
    return CitationForm(kind="name", **common)


def _link(url: str) -> str:
    """A safe ``url`` as a link form holds it: without the white space around it (which
    :func:`is_safe_url` ignores, and a channel would percent-encode into the link) and
    encoded as every channel writes it (:func:`renderers.url_encoding.encoded_url`), so a
    length measured on it is the length written."""
    return encoded_url(url.strip())


def _on_own_pages(source: Source, occurrence: Occurrence) -> Source:
    """``source`` on the pages of ``occurrence``'s quote, when the marker knows them."""
    if occurrence.page is None:
        return source
    return dataclasses.replace(source, page=occurrence.page, page_end=occurrence.page_end)


def _occurrence_forms(
    citation: Citation,
    context: RenderContext,
    weak: bool,
    *,
    link: bool = False,
    signed: str | None = None,
) -> tuple[OccurrenceForm, ...]:
    """Each marker's form: its own quote, its own link (a ``link`` form's deep link to that
    quote, else the source's URL; a download opening at that quote) and its own weakness (a
    marker whose claim was not checked is as weak as the citation). A marker that knows its
    own page (``Occurrence.page``) names it and has its download open there."""
    out: list[OccurrenceForm] = []
    for occurrence in citation.occurrences:
        source = _on_own_pages(citation.source, occurrence)
        url: str | None = None
        if link:
            for candidate in (occurrence.deep_link, citation.source.url, citation.deep_link):
                if candidate and is_safe_url(candidate):
                    url = _link(candidate)
                    break
        elif signed is not None:
            url = encoded_url(file_link(signed, source, occurrence.quote))
        support = occurrence.support
        out.append(
            OccurrenceForm(
                quote=None if occurrence.quote is None else shown(occurrence.quote),
                url=url,
                weak=weak if support is None else support < context.weak_below,
                detail=source_detail(source),
            )
        )
    return tuple(out)
