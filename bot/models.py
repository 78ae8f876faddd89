"""The canonical model: Source, Citation, Dropped and Answer (DESIGN §3).

These frozen dataclasses are the public contract between the resolver, the renderers and the
connectors, and their JSON forms (``to_json``/``from_json``) are the public contract of
``citecast resolve`` and the REST API: keys are the field names, ``None`` and empty optional
fields are omitted, and the forms stay stable across versions.

A source URL whose scheme is not http, https or mailto is removed when the Source is built (with a
logged warning), so no renderer can ever emit a ``javascript:`` or ``data:`` link.

Source, RecordAction and that URL check live in :mod:`bot.source_model` and are re-exported
here, so every model class is still imported from this module.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar, cast

from bot.errors import ValidationError
from bot.json_fields import list_of, optional_str, positive_int

# Source and its parts live in bot.source_model; they stay importable from here.
from bot.source_model import SAFE_URL_SCHEMES as SAFE_URL_SCHEMES
from bot.source_model import SOURCE_KINDS as SOURCE_KINDS
from bot.source_model import RecordAction as RecordAction
from bot.source_model import Source as Source
from bot.source_model import SourceKind as SourceKind
from bot.source_model import is_safe_url as is_safe_url

T = TypeVar("T")

DropReason = Literal[
    "unknown",
    "out_of_range",
    "forbidden",
    "uncitable",
    "invalid_token",
    "placeholder",
    "over_limit",
    "unsupported",
]
DROP_REASONS: tuple[str, ...] = (
    "unknown",
    "out_of_range",
    "forbidden",
    "uncitable",
    "invalid_token",
    "placeholder",
    "over_limit",
    "unsupported",
)


def _support_value(data: Mapping[str, Any], what: str) -> float | None:
    """``data["support"]``: a number from 0 to 1, or None when left out or null."""
    support = data.get("support")
    if support is None:
        return None
    if (
        isinstance(support, bool)
        or not isinstance(support, int | float)
        or not 0 <= support <= 1  # also false for NaN, which JSON parsers let through
    ):
        raise ValidationError(f"{what} support must be a number from 0 to 1")
    return float(support)


@dataclass(frozen=True)
class Occurrence:
    """One ``[^n]`` marker of a citation, as a reader checking that marker's own claim needs it.

    ``quote`` is the sentence of the passage that best supports the claim this marker closes,
    ``deep_link`` the link to it (a text fragment or a PDF page), ``support`` that claim's score
    in 0..1 (None when the marker's claim was not checked). ``page``/``page_end`` are the PDF
    pages ``quote`` is on when they were found in the passage's page map (``page_end`` None
    when one page; both None when unknown: the citation's source pages apply), so a marker's
    signed file link and tooltip name its own page (:mod:`bot.knowledge.page_spans`).
    """

    quote: str | None = None
    deep_link: str | None = None
    support: float | None = None
    page: int | None = None
    page_end: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON form; ``None`` fields omitted."""
        return {
            name: value
            for name in ("quote", "deep_link", "support", "page", "page_end")
            if (value := getattr(self, name)) is not None
        }

    @classmethod
    def from_json(cls, data: Any) -> Occurrence:
        """Build an Occurrence from its JSON form; raises ValidationError with the reason.

        Other keys are ignored, as a citation's are: stored answers a newer release wrote load.
        """
        if not isinstance(data, Mapping):
            raise ValidationError("an occurrence must be a JSON object")
        page, page_end = (
            None if data.get(key) is None else positive_int(data[key], f"occurrence {key}")
            for key in ("page", "page_end")
        )
        if page_end is not None and (page is None or page_end < page):
            raise ValidationError("occurrence page_end needs a page and may not be before it")
        return cls(
            quote=optional_str(data, "quote"),
            deep_link=optional_str(data, "deep_link"),
            support=_support_value(data, "occurrence"),
            page=page,
            page_end=page_end,
        )


@dataclass(frozen=True)
class Citation:
    """One citation in an answer: display number ``n`` and the source it points at.

    ``source_number`` is the number the registry gave the source (the one the model saw);
    ``n`` is the display number (1..k by first appearance, unless the policy keeps registry
    numbers). ``columns`` are the record columns the model attributed, only ones present in the
    source. ``support`` is the grounding score in 0..1, or None when not checked.

    ``occurrences`` has one entry per ``[^n]`` of the answer text, in text order, when the
    markers need more than the citation's own ``quote``/``deep_link``/``support`` (which are the
    source list's): grounding sets it only when some marker's claim is backed by another
    sentence of the passage than the citation's quote, or only some of the markers are weak.
    Empty (and absent from the JSON form) otherwise: every marker shows the citation's quote.
    A citation without a quote has none: a marker's quote refines the citation's, and a
    citation whose quote was withdrawn (a file no longer readable) withdraws its markers' too.
    """

    n: int
    source: Source
    source_number: int
    quote: str | None = None
    deep_link: str | None = None
    columns: tuple[str, ...] = ()
    claim: str | None = None
    support: float | None = None
    occurrences: tuple[Occurrence, ...] = ()

    def __post_init__(self) -> None:
        if self.occurrences and self.quote is None:
            object.__setattr__(self, "occurrences", ())
        elif not isinstance(self.occurrences, tuple):
            object.__setattr__(self, "occurrences", tuple(self.occurrences))

    def to_json(self) -> dict[str, Any]:
        """The JSON form; the source is nested in full."""
        out: dict[str, Any] = {
            "n": self.n,
            "source": self.source.to_json(),
            "source_number": self.source_number,
        }
        for name in ("quote", "deep_link", "claim", "support"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.columns:
            out["columns"] = list(self.columns)
        if self.occurrences:
            out["occurrences"] = [o.to_json() for o in self.occurrences]
        return out

    @classmethod
    def from_json(cls, data: Any) -> Citation:
        """Build a Citation from its JSON form; raises ValidationError with the reason."""
        if not isinstance(data, Mapping):
            raise ValidationError("a citation must be a JSON object")
        try:
            n = positive_int(data["n"], "n")
            source_number = positive_int(data.get("source_number", n), "source_number")
            source = Source.from_json(data["source"])
        except KeyError as exc:
            raise ValidationError(f"citation is missing field: {exc.args[0]}") from None
        columns = data.get("columns") or []
        if not isinstance(columns, list) or not all(isinstance(c, str) for c in columns):
            raise ValidationError("citation columns must be a list of strings")
        support = _support_value(data, "citation")
        occurrences = list_of(data, "occurrences", Occurrence.from_json)
        return cls(
            n=n,
            source=source,
            source_number=source_number,
            quote=optional_str(data, "quote"),
            deep_link=optional_str(data, "deep_link"),
            columns=tuple(columns),
            claim=optional_str(data, "claim"),
            support=support,
            occurrences=tuple(occurrences),
        )


@dataclass(frozen=True)
class Dropped:
    """A marker the resolver removed, with why and where (offset in the raw text)."""

    marker: str
    reason: DropReason
    offset: int

    def to_json(self) -> dict[str, Any]:
        """The JSON form."""
        return {"marker": self.marker, "reason": self.reason, "offset": self.offset}

    @classmethod
    def from_json(cls, data: Any) -> Dropped:
        """Build a Dropped entry from its JSON form."""
        if not isinstance(data, Mapping):
            raise ValidationError("a dropped marker must be a JSON object")
        reason = data.get("reason")
        if reason not in DROP_REASONS:
            raise ValidationError(f"dropped reason must be one of {', '.join(DROP_REASONS)}")
        offset = data.get("offset", 0)
        if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
            raise ValidationError("dropped offset must be a non-negative integer")
        return cls(
            marker=str(data.get("marker", "")), reason=cast(DropReason, reason), offset=offset
        )


@dataclass(frozen=True)
class Answer:
    """A resolved answer: CommonMark text with ``[^n]`` citations, the citations, dropped markers.

    ``uncited_claims`` lists sentences that state a fact but cite nothing (set by grounding).
    """

    text: str
    citations: tuple[Citation, ...] = ()
    dropped: tuple[Dropped, ...] = ()
    uncited_claims: tuple[str, ...] = field(default=())

    def citation(self, n: int) -> Citation | None:
        """The citation with display number ``n``, if any."""
        for citation in self.citations:
            if citation.n == n:
                return citation
        return None

    def to_json(self) -> dict[str, Any]:
        """The JSON form (the public contract of ``citecast resolve`` and the REST API)."""
        out: dict[str, Any] = {
            "text": self.text,
            "citations": [c.to_json() for c in self.citations],
            "dropped": [d.to_json() for d in self.dropped],
        }
        if self.uncited_claims:
            out["uncited_claims"] = list(self.uncited_claims)
        return out

    @classmethod
    def from_json(cls, data: Any) -> Answer:
        """Build an Answer from its JSON form; raises ValidationError naming the bad entry."""
        if not isinstance(data, Mapping):
            raise ValidationError("an answer must be a JSON object")
        text = data.get("text")
        if text is None:  # absent, or null (which the JSON form never writes)
            raise ValidationError("answer is missing field: text")
        if not isinstance(text, str):
            raise ValidationError("answer text must be a string")
        citations = list_of(data, "citations", Citation.from_json)
        dropped = list_of(data, "dropped", Dropped.from_json)
        claims = data.get("uncited_claims") or []
        if not isinstance(claims, list) or not all(isinstance(c, str) for c in claims):
            raise ValidationError("uncited_claims must be a list of strings")
        return cls(
            text=text,
            citations=tuple(sorted(citations, key=lambda c: c.n)),
            dropped=tuple(dropped),
            uncited_claims=tuple(claims),
        )


@dataclass(frozen=True)
class Exchange:
    """One earlier turn of a conversation, as passed to the assistant as history."""

    question: str
    answer: str


@dataclass(frozen=True)
class TextDelta:
    """Streaming event: safe answer text, already carrying canonical ``[^n]`` markers."""

    text: str


@dataclass(frozen=True)
class CitationAdded:
    """Streaming event: a citation became certain (emitted before the text that uses it)."""

    citation: Citation


StreamEvent = TextDelta | CitationAdded
