"""Source lists a model invented: entries citing numbers no source has (``model_cites``).

A model told to cite with ``[n]`` markers that writes ``Sources:\\n- [1] guide`` although no
source 1 exists (it answered without searching, or the search found nothing) invents the entry:
left in place, it reads as a citation. With ``ResolvePolicy.model_cites`` such an entry counts
as one the list may be removed for, beside entries naming registry sources
(:func:`bot.source_mentions.is_model_source_list`). Only the bracket forms count (``[1] …``,
``[^1] …``, with or without a list bullet): ``1. …`` is as often an ordered list of the
writer's, and an entry with a link, or naming something by title only, keeps today's judgement.
"""

from __future__ import annotations

import re

from bot.registry import SourceRegistry
from bot.source_mentions import is_model_source_list

_BRACKET_REF = re.compile(r"\s*(?:[-*+]\s+)?\[\^?(\d{1,3})\^?\]")
_LINK = re.compile(r"(?:https?|mailto):", re.IGNORECASE)


def invented_entry(registry: SourceRegistry, item: str) -> bool:
    """Whether ``item`` cites, by a bracket number, a source the registry does not have."""
    ref = _BRACKET_REF.match(item)
    return ref is not None and registry.get(int(ref[1])) is None and not _LINK.search(item)


def is_cited_source_list(registry: SourceRegistry, items: list[str]) -> bool:
    """The source-list judge for an answer from a model told to cite: every item either
    invents a source (:func:`invented_entry`) or names a registry source and links nowhere
    else (as :func:`bot.source_mentions.is_model_source_list` reads it)."""
    return is_model_source_list(
        registry, [item for item in items if not invented_entry(registry, item)]
    )
