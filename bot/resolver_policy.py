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

    ``model_cites``: the answer comes from a model told to cite with ``[n]`` markers (the
    OpenAI backend's prompt), so a number written as a citation is one even where no source has
    it: bare groups (``[7]``, ``[n]``) are markers while the registry is still empty, and
    ``(Source 7)`` and ``<sup>7</sup>`` are markers whatever numbers they name, and a linked
    number in double brackets whose URL no source has (``[[7]](https://elsewhere)``) is the
    group ``[7]``, its URL dropped (kept, every channel would show a link labelled "[7]", a
    citation's look, to a page outside the source list). Each number naming no source is then
    dropped as ``out_of_range`` (a placeholder as ``placeholder``), and a trailing source list
    whose entries cite numbers no source has is removed. Not a setting:
    the assistant sets it for model answers; text that never meant to cite (``citecast
    resolve``, the extractive answerer) keeps DESIGN §5's reading, where ``[7]`` in an answer
    that cites nothing may be the writer's text.
    """

    numbering: Literal["appearance", "registry"] = "appearance"
    max_citations: int | None = None
    infer_from_mentions: bool = False
    strip_model_source_lists: bool = True
    key_word: str = "source"
    model_cites: bool = False

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
