"""Which of this turn's registry numbers a parsed marker names (DESIGN §5).

A marker may name sources by registry number (``[3]``), by source id, by record key
(``[[source key="CC-TEAM"]]``) or by the URL of a link. Whatever cannot stand is reported
through ``drop`` with its reason; the id of a source the viewer may not see is passed as the
part to redact, so it never reaches the Answer.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.marker_parse import Marker
from bot.models import DropReason
from bot.registry import SourceRegistry, canonical_url

Drop = Callable[[Marker, DropReason, str | None], None]
"""``drop(marker, reason, redact)``: record that ``marker`` (or part of it) cannot stand."""


def marker_targets(marker: Marker, registry: SourceRegistry, drop: Drop) -> list[int]:
    """Registry numbers ``marker`` names, in its order; what cannot stand goes to ``drop``."""
    if marker.family == "stray":
        return []
    if marker.placeholder:
        drop(marker, "placeholder", None)
        return []
    if marker.family == "linked" and marker.url is not None:
        return _linked_targets(marker, marker.url, registry)
    if marker.key is not None:
        number = registry.number_for_key(marker.key)
        if number is None:
            drop(marker, "invalid_token", None)
            return []
        return [number]
    targets: list[int] = []
    for value in marker.numbers:
        if registry.get(value) is None:
            drop(marker, "out_of_range", None)
        else:
            targets.append(value)
    for ident in marker.ids:
        found = registry.number_for_id(ident)
        if isinstance(found, int):
            targets.append(found)
            continue
        key_number = registry.number_for_key(ident)
        if key_number is not None:
            targets.append(key_number)
        else:
            drop(marker, found, ident if found == "forbidden" else None)
    if not marker.numbers and not marker.ids:
        drop(marker, "unknown", None)
    return targets


def _linked_targets(marker: Marker, url: str, registry: SourceRegistry) -> list[int]:
    """A link's numbers that point at the same page, else the first source with that URL."""
    wanted = canonical_url(url)
    out: list[int] = []
    for value in marker.numbers:
        source = registry.get(value)
        if source is not None and source.url and _same_url(source.url, wanted):
            out.append(value)
    return out or registry.numbers_for_url(url)[:1]


def _same_url(url: str, canonical: str) -> bool:
    try:
        return canonical_url(url) == canonical
    except ValueError:
        return False
