"""How markers become citations: :class:`ResolvePolicy`, the resolver's configuration.

Split out of ``bot.resolver`` for size; that module re-exports it, so its importers are
unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from bot.config import ResolveSettings

__all__ = ["ResolvePolicy"]


@dataclass(frozen=True)
class ResolvePolicy:
    """How markers become citations.

    ``numbering``: "appearance" shows 1..k in order of first appearance; "registry" keeps the
    registry's numbers. ``max_citations``: distinct sources beyond it are dropped as
    ``over_limit``. ``infer_from_mentions``: a record label named in the answer without a marker
    becomes a citation right after the label. ``strip_model_source_lists``: remove a trailing
    "Sources:" list that only repeats registry sources. ``key_word``: the token word of record
    keys (``[[source key="…"]]``).
    """

    numbering: Literal["appearance", "registry"] = "appearance"
    max_citations: int | None = None
    infer_from_mentions: bool = False
    strip_model_source_lists: bool = True
    key_word: str = "source"

    @classmethod
    def from_settings(cls, settings: ResolveSettings) -> ResolvePolicy:
        """The policy configured in ``config.yaml``'s ``resolve`` section."""
        return cls(
            numbering=settings.numbering,
            max_citations=settings.max_citations,
            infer_from_mentions=settings.infer_from_mentions,
            strip_model_source_lists=settings.strip_model_source_lists,
            key_word=settings.key_word,
        )
