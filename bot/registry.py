"""SourceRegistry: one per turn; numbers sources the moment a tool returns them (DESIGN §4).

The number travels beside the evidence: the tool-result formatters register each source as they
format it, so the model sees ``[cite: 3]`` (or a ``Cite`` column, or a ``cite`` field) right next
to the passage it may cite. The resolver later maps whatever marker the model wrote back to the
same source through this registry.

Rules:

- A new citable source the viewer may see gets the next number (1, 2, ...). A duplicate (same
  ``id``, or same URL + page + chunk of the same file, see :mod:`bot.registry_urls`) gets the
  number of its first occurrence; two files or two anchors of one page never share a number.
- An uncitable source is evidence only (grounding may read it) and gets no number.
- A source the viewer may not see is never numbered and never kept: only its ``id`` is
  remembered, so a marker naming it is dropped as ``forbidden`` rather than ``unknown``.
- Record keys are a short HMAC of a per-turn random secret over the number; a key copied from
  another turn is invalid. Lookups compare in constant time.

``register`` is safe under threads and asyncio tasks: one lock, never held across an await.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from bot.errors import RegistryError, ValidationError
from bot.models import Source
from bot.page_labels import page_label
from bot.reference_marks import passage_without_reference_marks
from bot.registry_urls import UrlNumbers

# canonical_url lives in bot.registry_urls; it stays importable from here.
from bot.registry_urls import canonical_url as canonical_url

IdStatus = Literal["forbidden", "uncitable", "unknown"]
KEY_HEX_CHARS = 8
_JSON_VERSION = 1


class SourceRegistry:
    """The numbered sources of one turn, as seen by one viewer (a set of audience groups)."""

    def __init__(self, audience: Iterable[str] = ("public",), *, secret: bytes | None = None):
        if isinstance(audience, str):
            audience = (audience,)
        self.audience: frozenset[str] = frozenset(audience)
        self._secret = secret if secret is not None else secrets.token_bytes(16)
        self._lock = threading.Lock()
        self._numbered: dict[int, Source] = {}
        self._number_by_id: dict[str, int] = {}
        self._urls = UrlNumbers()
        self._evidence: dict[str, Source] = {}
        self._uncitable_ids: set[str] = set()
        self._forbidden_ids: set[str] = set()
        self._keys: dict[int, str] = {}
        self._key_forms: dict[int, tuple[bytes, bytes]] = {}  # number: (key, case-folded)
        self._key_order: list[tuple[int, tuple[bytes, bytes]]] = []  # _key_forms, sorted

    # -- registration -------------------------------------------------------------------------

    def register(self, source: Source) -> int | None:
        """Register one source; its number, or None when it is uncitable or not visible."""
        with self._lock:
            return self._register_locked(source)

    def register_all(self, sources: Iterable[Source]) -> list[int | None]:
        """Register sources in order; their numbers (None for uncitable or hidden ones)."""
        with self._lock:
            return [self._register_locked(source) for source in sources]

    def _register_locked(self, source: Source) -> int | None:
        if not source.visible_to(self.audience):
            if source.id not in self._evidence:
                self._forbidden_ids.add(source.id)
            return None
        self._evidence.setdefault(source.id, source)
        if source.id in self._number_by_id:
            return self._number_by_id[source.id]
        if not source.citable:
            self._uncitable_ids.add(source.id)
            return None
        new_number = len(self._numbered) + 1
        number = self._urls.claim(source, new_number)
        self._number_by_id[source.id] = number
        if number == new_number:
            self._numbered[number] = source
            self._uncitable_ids.discard(source.id)
        return number

    # -- lookups ------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._numbered)

    def get(self, number: int) -> Source | None:
        """The source with registry number ``number``, if any."""
        return self._numbered.get(number)

    def number_of(self, source: Source) -> int | None:
        """The number ``source`` (or a duplicate of it) was given, without registering it."""
        number = self._number_by_id.get(source.id)
        if number is not None:
            return number
        if not source.visible_to(self.audience):
            return None
        return self._urls.duplicate_of(source)

    def number_for_id(self, source_id: str) -> int | IdStatus:
        """The number of the source with ``source_id``, or why there is none."""
        number = self._number_by_id.get(source_id)
        if number is not None:
            return number
        if source_id in self._uncitable_ids:
            return "uncitable"
        if source_id in self._forbidden_ids:
            return "forbidden"
        return "unknown"

    def numbers_for_url(self, url: str) -> list[int]:
        """Numbers of the sources on the page of ``url`` (any page number), in number order.

        A ``#fragment`` in ``url`` leaves out sources with another fragment (another part of
        the page, or another document sharing the page's URL); see :mod:`bot.registry_urls`.
        """
        return self._urls.numbers_for_url(url)

    def numbered(self) -> dict[int, Source]:
        """Every numbered source by number (a copy)."""
        return dict(self._numbered)

    def evidence(self) -> list[Source]:
        """Every registered source the viewer may see, citable or not (for grounding)."""
        return list(self._evidence.values())

    # -- opaque keys --------------------------------------------------------------------------

    def key_for(self, number: int) -> str:
        """The opaque key of source ``number``: the caller's ``Source.key`` or a per-turn HMAC."""
        source = self._numbered.get(number)
        if source is None:
            raise RegistryError(f"no source numbered {number} in this turn")
        if source.key:
            return source.key
        key = self._keys.get(number)
        if key is None:
            digest = hmac.new(self._secret, f"cite:{number}".encode(), hashlib.sha256)
            key = digest.hexdigest()[:KEY_HEX_CHARS]
            self._keys[number] = key
        return key

    def number_for_key(self, key: str) -> int | None:
        """The number whose key is ``key``, or None (constant-time comparisons).

        An exact match wins. Otherwise letter case is ignored, but only when one key of this
        turn matches that way: models upper-case keys they copy ("SKU-12" for "sku-12", hex
        HMAC keys in capitals), while a turn whose caller issued keys differing only in case
        ("ab" and "AB") gives such a marker no source rather than a guessed one.
        """
        written = key.strip()
        exact = self._match_key(_key_bytes(written), folded=False)
        if exact:
            return exact[0]
        # each distinct key that matches ignoring case, with its first number
        folded = self._match_key(_key_bytes(written.casefold()), folded=True)
        return folded[0] if len(folded) == 1 else None

    def _match_key(self, candidate: bytes, *, folded: bool) -> list[int]:
        """Numbers whose (case-folded) key equals ``candidate``, one per distinct key.

        Every key is compared, in constant time, whatever matched before.
        """
        found: dict[bytes, int] = {}
        for number, forms in self._all_key_forms():
            if hmac.compare_digest(forms[folded], candidate):
                found.setdefault(forms[0], number)
        return list(found.values())

    def _all_key_forms(self) -> list[tuple[int, tuple[bytes, bytes]]]:
        """Every number with its key's (key, case-folded) bytes, in number order.

        Built once per size of the registry: a number's source, and so its key, never change,
        and a resolver asks for every marker with a key.
        """
        if len(self._key_forms) != len(self._numbered):
            for number in self._numbered.keys() - self._key_forms.keys():
                own = self.key_for(number)
                self._key_forms[number] = (_key_bytes(own), _key_bytes(own.casefold()))
            self._key_order = sorted(self._key_forms.items())
        return self._key_order

    # -- tool-result formatting ---------------------------------------------------------------

    def format_passages(self, sources: Iterable[Source]) -> str:
        """Register and format passages, each under a ``[cite: N]`` heading (none if uncitable).

        Sources the viewer may not see are left out entirely. A passage's own reference marks
        ("yearly [1].") are left out (:mod:`bot.reference_marks`): a model copies them, and
        beside the ``[cite: N]`` numbers they read as citations of other sources.
        """
        blocks: list[str] = []
        for source in sources:
            if not source.visible_to(self.audience):
                self.register(source)
                continue
            number = self.register(source)
            heading = passage_heading(source)
            head = f"[cite: {number}] {heading}" if number is not None else heading
            body = passage_without_reference_marks((source.text or "").strip())
            blocks.append(f"{head}\n{body}" if body else head)
        return "\n\n".join(blocks)

    def format_table(self, sources: Iterable[Source], columns: Sequence[str]) -> str:
        """Register and format records as a markdown table with a leading ``Cite`` column."""
        header = ["Cite", *columns]
        lines = [
            "| " + " | ".join(_cell(c) for c in header) + " |",
            "|" + "|".join("---" for _ in header) + "|",
        ]
        for source in sources:
            number = self.register(source)
            if not source.visible_to(self.audience):
                continue
            values = [_record_value(source, column) for column in columns]
            cite = "" if number is None else str(number)
            lines.append("| " + " | ".join(_cell(v) for v in [cite, *values]) + " |")
        return "\n".join(lines)

    def format_records(self, sources: Iterable[Source]) -> list[dict[str, Any]]:
        """Register and format records as dicts; citable ones get ``cite`` (and ``key``)."""
        out: list[dict[str, Any]] = []
        for source in sources:
            number = self.register(source)
            if not source.visible_to(self.audience):
                continue
            item: dict[str, Any] = {}
            if number is not None:
                item["cite"] = number
                item["key"] = self.key_for(number)
            item["label"] = source.label or source.display_title
            if source.columns:
                item["columns"] = dict(source.columns)
            if source.url:
                item["url"] = source.url
            if source.text and not source.columns:
                item["text"] = source.text
            out.append(item)
        return out

    # -- serialization ------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The registry as JSON: audience, secret, numbered sources, evidence, forbidden ids."""
        with self._lock:
            aliases = {
                sid: n for sid, n in self._number_by_id.items() if self._numbered[n].id != sid
            }
            return {
                "version": _JSON_VERSION,
                "audience": sorted(self.audience),
                "secret": self._secret.hex(),
                "numbered": [
                    {"n": n, "source": source.to_json()}
                    for n, source in sorted(self._numbered.items())
                ],
                "aliases": aliases,
                "evidence": [source.to_json() for source in self._evidence.values()],
                "uncitable": sorted(self._uncitable_ids),
                "forbidden": sorted(self._forbidden_ids),
            }

    @classmethod
    def from_json(cls, data: Any) -> SourceRegistry:
        """Rebuild a registry from ``to_json``; raises RegistryError for bad state."""
        try:
            return cls._from_json(data)
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, RegistryError):
                raise
            raise RegistryError(f"invalid serialized registry: {exc}") from None

    @classmethod
    def _from_json(cls, data: Any) -> SourceRegistry:
        if not isinstance(data, Mapping) or data.get("version") != _JSON_VERSION:
            raise RegistryError("invalid serialized registry: unsupported version")
        registry = cls(data["audience"], secret=bytes.fromhex(data["secret"]))
        try:
            for index, item in enumerate(data["numbered"], start=1):
                source = Source.from_json(item["source"])
                if item["n"] != index:
                    raise RegistryError("invalid serialized registry: numbers must run 1..k")
                registry._numbered[index] = source
                registry._number_by_id[source.id] = index
                registry._urls.claim(source, index)
            aliases = dict(data.get("aliases", {}))
            for source_id, number in aliases.items():
                if number not in registry._numbered:
                    raise RegistryError(f"invalid serialized registry: alias {source_id!r}")
                registry._number_by_id[str(source_id)] = number
            for entry in data.get("evidence", []):
                source = Source.from_json(entry)
                registry._evidence.setdefault(source.id, source)
            for source_id, number in aliases.items():
                alias = registry._evidence.get(str(source_id))
                if alias is not None:
                    registry._urls.add_duplicate(alias, number)
        except ValidationError as exc:
            raise RegistryError(f"invalid serialized registry: {exc}") from None
        registry._uncitable_ids = {str(i) for i in data.get("uncitable", [])}
        registry._forbidden_ids = {str(i) for i in data.get("forbidden", [])}
        return registry


def _key_bytes(key: str) -> bytes:
    # "replace": a caller-issued key or a model-written one may hold lone surrogates
    return key.encode("utf-8", "replace")


def passage_heading(source: Source) -> str:
    """The heading a tool result prints beside a passage's ``[cite: N]`` (title — section —
    pages): what a model copies into its own source list (``bot.listed_names``)."""
    parts = [source.display_title]
    if source.section:
        parts.append(source.section)
    pages = page_label(source.page, source.page_end)
    if pages is not None:
        parts.append(pages)
    return " — ".join(parts)


def _record_value(source: Source, column: str) -> str:
    if source.columns and column in source.columns:
        return source.columns[column]
    if column in {"label", "name", "title"}:
        return source.label or source.display_title
    if column == "url":
        return source.url or ""
    return ""


def _cell(value: str) -> str:
    return value.replace("\\", "\\\\").replace("|", "\\|").replace("\r", " ").replace("\n", " ")
