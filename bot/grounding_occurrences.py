"""Each ``[^n]`` marker's own quote, link and support (``Citation.occurrences``).

One Citation per source carries one quote and one deep link, for the source list: the sentence
backing its best-supported marker. When an answer cites a source twice for two different
sentences ("Install with pip [^1]. The index is a single SQLite file [^1]."), the second
marker's hover text and link then showed the first claim's sentence, and a reader checking the
second claim saw a quote that does not mention it. ``verify`` scores every marker against its
own claim anyway (:class:`ScoredMark`); this module keeps, per marker, the sentence that backs
*its* claim, and whether that claim is weak, so the web renderer can show each marker its own.

Occurrences are set only when they tell the markers apart (another sentence than the
citation's quote, or only some of the markers weak): an answer whose markers all agree keeps
the JSON form it had.

A marker's link to a PDF passage that spans pages opens the passage's first page here (no page
map is at hand); the Assistant then moves it to its own quote's page, and the citation's
source to the pages of all its quotes (:func:`bot.knowledge.page_spans.narrow_citation`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from bot.claims import Claim
from bot.deeplinks import deep_link
from bot.models import Citation, Occurrence
from bot.support import Support


@dataclass(frozen=True)
class ScoredMark:
    """One ``[^n]`` marker of a citation: where it is, the claim it closes, how it is backed."""

    mark: int  # the marker's offset in the answer text
    claim: Claim
    support: Support
    score: float  # the support score clamped to 0..1
    quote: str | None  # the passage's words that back this claim (None: nothing found)


def best_of(scored: Sequence[ScoredMark]) -> ScoredMark:
    """The best-backed marker (the first of equals): the citation's own quote is its."""
    return max(scored, key=lambda o: o.score)


def positions(
    marks: Iterable[re.Match[str]], keep: Callable[[re.Match[str]], bool] | None = None
) -> dict[int, list[int]]:
    """The offsets of each citation number's kept markers, in text order."""
    out: dict[int, list[int]] = {}
    for match in marks:
        if keep is None or keep(match):
            out.setdefault(int(match.group(1)), []).append(match.start())
    return out


def with_occurrences(
    citations: Iterable[Citation],
    scored: Mapping[int, Sequence[ScoredMark]],
    threshold: float,
    placed: Callable[[], Mapping[int, Sequence[int]] | None],
) -> tuple[Citation, ...]:
    """``citations`` (already checked, keyed by ``n`` in ``scored``), each with its markers'
    occurrences where they differ from it.

    ``placed`` gives every citation number's marker offsets as the renderers read them (the
    k-th offset is the k-th ``[^n]`` they draw), or None when they cannot be placed; it is only
    called when some citation's markers differ, so the common answer is not parsed again.
    """
    citations = tuple(citations)
    wanted = {c.n for c in citations if _markers_differ(scored.get(c.n, ()), threshold)}
    if not wanted:
        return citations
    where = placed()
    if where is None:
        return citations  # one quote per citation, as before, rather than a quote misplaced
    return tuple(
        replace(c, occurrences=_occurrences(c, scored[c.n], where.get(c.n, ()), threshold))
        if c.n in wanted
        else c
        for c in citations
    )


def _markers_differ(scored: Sequence[ScoredMark], threshold: float) -> bool:
    if len(scored) < 2:
        return False
    best = best_of(scored)
    if any(o.quote is not None and o.quote != best.quote for o in scored):
        return True
    return len({o.score < threshold for o in scored}) > 1


def _occurrences(
    citation: Citation, scored: Sequence[ScoredMark], marks: Sequence[int], threshold: float
) -> tuple[Occurrence, ...]:
    """One Occurrence per offset of ``marks``; none when they would all repeat the citation."""
    best = best_of(scored)
    by_mark = {o.mark: o for o in scored}
    out: list[Occurrence] = []
    for offset in marks:
        own = by_mark.get(offset)
        if own is None:  # a marker no claim was read for: the citation's own quote
            out.append(Occurrence(citation.quote, citation.deep_link))
        elif own.quote is None or own.quote == best.quote:
            # the sentence the citation quotes (which may be the model's own quoted words)
            out.append(Occurrence(citation.quote, citation.deep_link, own.score))
        else:
            link = deep_link(citation.source, own.quote) or deep_link(citation.source)
            out.append(Occurrence(own.quote, link, own.score))
    if citation.quote is None:
        return ()  # nothing the markers' quotes would refine (``Citation.occurrences``)
    quoted_apart = any(o.quote != citation.quote for o in out)
    weak_apart = len({o.support < threshold for o in out if o.support is not None}) > 1
    return tuple(out) if quoted_apart or weak_apart else ()


__all__ = ["ScoredMark", "best_of", "positions", "with_occurrences"]
