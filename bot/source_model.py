"""The Source model: one retrieved item, its record action and the URL check (DESIGN §3).

Split from :mod:`bot.models`, which re-exports every name here: ``from bot.models import Source``
stays the way to import it. This module does not import :mod:`bot.models`.

A source URL whose scheme is not http, https or mailto is removed when the Source is built (with a
logged warning), so no renderer can ever emit a ``javascript:`` or ``data:`` link; a safe one
is kept without the white space around it. A blank title, label or file name counts as none.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal
from urllib.parse import urlsplit

from bot.bidi_controls import without_bidi_controls
from bot.errors import ValidationError

# the name from before the split, so logging set up for "bot.models" still covers this warning
log = logging.getLogger("bot.models")

SAFE_URL_SCHEMES = frozenset({"http", "https", "mailto"})

SourceKind = Literal["passage", "file", "record", "web"]
SOURCE_KINDS: tuple[str, ...] = ("passage", "file", "record", "web")


def is_safe_url(url: str | None) -> bool:
    """True when ``url`` is an absolute http, https or mailto URL without control characters."""
    if not url or any(ord(ch) < 0x20 or ch == "\x7f" for ch in url):
        return False
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return False
    if parts.scheme.lower() not in SAFE_URL_SCHEMES:
        return False
    return parts.scheme.lower() == "mailto" or bool(parts.netloc)


# the fields a source is named by (display_title, a file's name to attach it as)
_NAMES = ("title", "label", "filename")


@dataclass(frozen=True)
class RecordAction:
    """A record's call to action, shown as a button where the channel has buttons."""

    label: str
    url: str


@dataclass(frozen=True)
class Source:
    """One retrieved item: a passage, a file, a record or a web page.

    Only ``id`` is required. ``citable=False`` marks evidence the grounding check may use but the
    answer may never cite. ``audience`` lists the groups allowed to see the source.
    """

    id: str
    title: str | None = None
    url: str | None = None
    filename: str | None = None
    path: str | None = None
    media_type: str | None = None
    page: int | None = None
    page_end: int | None = None
    section: str | None = None
    chunk: int | None = None
    text: str | None = None
    citable: bool = True
    audience: tuple[str, ...] = ("public",)
    kind: SourceKind = "passage"
    key: str | None = None
    label: str | None = None
    columns: Mapping[str, str] | None = None
    action: RecordAction | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id:
            raise ValidationError("source id must be a non-empty string")
        # a URL is kept without the white space around it, which is_safe_url ignores too:
        # a channel would percent-encode it into the link (" https://…" -> "%20https://…")
        if self.url is not None and not is_safe_url(self.url):
            log.warning("dropping unsafe URL from source %r", self.id)
            object.__setattr__(self, "url", None)
        elif self.url is not None and self.url != self.url.strip():
            object.__setattr__(self, "url", self.url.strip())
        if self.action is not None and not is_safe_url(self.action.url):
            log.warning("dropping unsafe action URL from source %r", self.id)
            object.__setattr__(self, "action", None)
        elif self.action is not None and self.action.url != self.action.url.strip():
            action = RecordAction(self.action.label, self.action.url.strip())
            object.__setattr__(self, "action", action)
        for name in _NAMES:
            value = getattr(self, name)
            if isinstance(value, str) and not without_bidi_controls(value).strip():
                # a blank name names nothing: the source is named as when it had none (one of
                # only bidi controls too, which every renderer drops, leaving it blank)
                object.__setattr__(self, name, None)
        if isinstance(self.audience, str):
            object.__setattr__(self, "audience", (self.audience,))
        elif not isinstance(self.audience, tuple):
            object.__setattr__(self, "audience", tuple(self.audience))
        if self.columns is not None and not isinstance(self.columns, dict):
            object.__setattr__(self, "columns", dict(self.columns))
        if self.kind not in SOURCE_KINDS:
            raise ValidationError(f"source {self.id!r}: kind must be one of {SOURCE_KINDS}")
        for name in ("page", "page_end", "chunk"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 1):
                raise ValidationError(f"source {self.id!r}: {name} must be a positive integer")

    @property
    def display_title(self) -> str:
        """The best human name for the source: title, label, file name, URL or id."""
        return self.title or self.label or self.filename or self.url or self.id

    def visible_to(self, groups: frozenset[str] | set[str]) -> bool:
        """True when a viewer in ``groups`` may see this source.

        A ``public`` source is visible to every viewer: groups widen what a viewer sees and
        never hide public documents (a channel mapped to ``[staff]`` still cites the guides).
        """
        return "public" in self.audience or any(group in groups for group in self.audience)

    def to_json(self) -> dict[str, Any]:
        """The JSON form: field names as keys, ``None`` fields and default flags omitted."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None:
                continue
            if f.name == "citable" and value is True:
                continue
            if f.name == "audience":
                value = list(value)
            elif f.name == "columns":
                value = dict(value)
            elif f.name == "action":
                value = {"label": value.label, "url": value.url}
            out[f.name] = value
        return out

    @classmethod
    def from_json(cls, data: Any) -> Source:
        """Build a Source from its JSON form; raises ValidationError with the reason."""
        if not isinstance(data, Mapping):
            raise ValidationError("a source must be a JSON object")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValidationError(f"unknown field(s): {', '.join(unknown)}")
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            if value is None:
                continue
            kwargs[key] = _coerce_source_field(key, value)
        if "id" not in kwargs:
            raise ValidationError("missing field: id")
        return cls(**kwargs)


def _coerce_source_field(key: str, value: Any) -> Any:
    if key in {"page", "page_end", "chunk"}:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValidationError(f"{key} must be an integer")
        return value
    if key == "citable":
        if not isinstance(value, bool):
            raise ValidationError("citable must be true or false")
        return value
    if key == "audience":
        if isinstance(value, str):
            return (value,)
        if not isinstance(value, list) or not all(isinstance(g, str) for g in value):
            raise ValidationError("audience must be a list of strings")
        return tuple(value)
    if key == "columns":
        if not isinstance(value, Mapping):
            raise ValidationError("columns must be an object")
        return {str(k): "" if v is None else str(v) for k, v in value.items()}
    if key == "action":
        if not isinstance(value, Mapping) or not isinstance(value.get("url"), str):
            raise ValidationError("action must be an object with label and url")
        return RecordAction(label=str(value.get("label") or "Open"), url=value["url"])
    if key == "kind":
        if value not in SOURCE_KINDS:
            raise ValidationError(f"kind must be one of {', '.join(SOURCE_KINDS)}")
        return value
    if not isinstance(value, str):
        raise ValidationError(f"{key} must be a string")
    return value
