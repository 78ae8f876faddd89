"""Claim-level support checks for every citation (DESIGN §1, ``verify``).

A citation number that names a real source does not yet prove the source says what the sentence
claims. ``verify(answer, registry, policy)`` scores each occurrence of a citation's marker
against the clause that marker closes (``bot.claims``) with a
:class:`bot.support.SupportScorer` (lexical and offline by default; a claim cited to a record is
matched to the record's column values, ``bot.record_support``), and then, by policy:

- ``annotate`` (default): every checked citation carries the ``support`` (0..1) and ``claim`` of
  its weakest occurrence, and as ``quote`` (and so its deep link) the passage sentence backing
  its best-supported one; renderers mark weak ones. A backed sentence no longer lends its score
  to an invented one citing the same source. When its markers differ (another sentence of the
  passage backs another marker's claim, or only some markers are weak), the citation also
  carries one ``Occurrence`` per marker (``bot.grounding_occurrences``): the web shows each
  marker its own quote and link, and marks weak only the weak ones.
- ``drop``: each marker whose own claim scores below ``threshold`` is removed from the text and
  listed in ``dropped`` with reason ``unsupported`` (other markers of the same citation stay);
  a citation left with no marker goes, and the remaining ones are renumbered 1..k by first
  appearance, the only renumbering after the resolver, so the no-gaps contract of ``Answer``
  still holds.
- ``off``: the answer is returned unchanged.

With ``flag_uncited_claims`` the sentences that state a fact but cite nothing are listed in
``Answer.uncited_claims``. A citation whose source has no text (a bare file) cannot be checked and
keeps ``support = None``.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal, Protocol

from bot.claims import CITATION_RE, Claim, Sentence, mask_code, read_answer, sentences
from bot.config import GroundingSettings
from bot.deeplinks import deep_link
from bot.grounding_occurrences import ScoredMark, best_of, positions, with_occurrences
from bot.markdown import citations_in, parse
from bot.models import Answer, Citation, Dropped, Source
from bot.record_support import record_match
from bot.support import (
    HARD_CHECK_CAP,
    LexicalScorer,
    ScorerFactory,
    Support,
    SupportScorer,
    best_support,
    scorer_factory,
)
from bot.table_quotes import row_quote
from bot.text_terms import content_terms, number_values, term_set

log = logging.getLogger(__name__)
_MIN_FACT_TERMS = 4
# A question, or a lead-in to a list, states nothing; CJK writes them with full-width marks.
_NOT_A_STATEMENT = ("?", ":", "？", "：")
_NOT_FOUND_RE = re.compile(r"\b(could not find|couldn't find|no relevant|nothing relevant)\b", re.I)


class EvidenceSource(Protocol):
    """What ``verify`` needs from a registry: every source the viewer may see this turn."""

    def evidence(self) -> list[Source]:
        """Every registered, visible source (citable or not)."""
        ...


@dataclass(frozen=True)
class GroundingPolicy:
    """How ``verify`` acts on its scores (from the ``grounding`` section of config.yaml)."""

    mode: Literal["annotate", "drop", "off"] = "annotate"
    threshold: float = 0.35
    flag_uncited_claims: bool = True
    scorer: ScorerFactory | None = None

    @classmethod
    def from_settings(cls, settings: GroundingSettings) -> GroundingPolicy:
        """The policy configured in ``config.yaml``, with its scorer backend loaded."""
        return cls(
            settings.policy,
            settings.threshold,
            settings.flag_uncited_claims,
            scorer_factory(settings.backend),
        )


def passage_of(source: Source) -> str:
    """The text a citation to ``source`` is checked against (records: label and columns)."""
    if source.text:
        return source.text
    if source.kind == "record" and source.columns:
        # One line, so the whole record is one window: its columns support a claim together.
        cells = "; ".join(
            f"{key.replace('_', ' ')} {value}" for key, value in source.columns.items()
        )
        return f"{source.label or source.title or 'record'}: {cells}"
    return ""


def record_quote(source: Source, claim: str) -> str | None:
    """The lines of a record (``column: value``) that hold what ``claim`` states, or None.

    A record's text is its label and one short line per column, so the best one- or two-line
    window of a document passage quoted the wrong lines: a sentence giving a plan's tier,
    price, seats and support was quoted "seats: … support: …", and a cost answer never showed
    the price. The quote runs from the first to the last column line sharing a word or number
    with the claim (a span of the record's own text); the label's words do not count, since the
    claim names the record with them ("the Team plan costs 19" is quoted "price_usd: 19", not
    "tier: team"). None when no column line qualifies or the text is not laid out that way.
    """
    if source.kind != "record" or not source.columns or not source.text:
        return None
    # every column's line, blank ones too, so that the span is the record's text as written
    lines = [f"{key}: {value}" for key, value in source.columns.items()]
    stated = term_set(claim) - term_set(source.label or "")
    held = [
        i
        for i, (line, value) in enumerate(zip(lines, source.columns.values(), strict=True))
        if value.strip() and not stated.isdisjoint(term_set(line))
    ]
    if not held:
        return None
    quote = ". ".join(lines[held[0] : held[-1] + 1])
    return quote if quote.lower() in source.text.lower() else None


def source_support(scorer: SupportScorer, source: Source, claim: str) -> Support:
    """How well ``source`` backs ``claim``: its passage's best window, and for a record cited
    by the lexical scorer, the match of the values the claim states (``bot.record_support``).
    Live grounding and ``citecast eval`` both score a citation with this."""
    passage = passage_of(source)
    if not passage:
        return Support(0.0, None)
    support = best_support(scorer, passage, claim)
    # a table's header (or two rows side by side) holds more of a row's claim than the row
    support = Support(support.score, row_quote(passage, claim, support.quote))
    if isinstance(scorer, LexicalScorer):
        verdict = record_match(source, claim, scorer.in_every_text)
        if verdict == "match":
            return Support(1.0, record_quote(source, claim) or support.quote)
        if verdict == "conflict":
            return Support(min(support.score, HARD_CHECK_CAP), support.quote)
    return support


def verify(
    answer: Answer,
    registry: EvidenceSource | None = None,
    policy: GroundingPolicy | None = None,
    scorer: ScorerFactory | None = None,
) -> Answer:
    """Score every citation of ``answer`` and apply ``policy`` (see the module docstring)."""
    policy = policy or GroundingPolicy()
    if policy.mode == "off":
        return answer
    evidence = [passage_of(s) for s in (registry.evidence() if registry else [])]
    evidence += [passage_of(c.source) for c in answer.citations]
    score = (scorer or policy.scorer or LexicalScorer)([text for text in evidence if text])
    occurrences: dict[int, list[tuple[int, Claim]]] = {}
    found, read = read_answer(answer.text)
    for claim in found:
        for n, mark in zip(claim.numbers, claim.marks, strict=True):
            occurrences.setdefault(n, []).append((mark, claim))
    scored = {c.n: _score(c, occurrences.get(c.n, []), score) for c in answer.citations}
    if policy.mode == "drop":
        result = _drop_unsupported(answer, scored, policy.threshold)
    else:
        checked = with_occurrences(
            (_checked(c, scored[c.n]) for c in answer.citations),
            scored,
            policy.threshold,
            lambda: _placed(answer.text),
        )
        result = replace(answer, citations=checked)
    if policy.flag_uncited_claims:
        # the answer's sentences were read with its claims, unless markers were dropped since
        same = read if result.text == answer.text else None
        result = replace(result, uncited_claims=tuple(uncited_claims(result.text, same)))
    return result


def _score(
    citation: Citation, cited_by: Sequence[tuple[int, Claim]], scorer: SupportScorer
) -> list[ScoredMark]:
    """Every occurrence of ``citation``'s marker scored against its own claim (none when the
    source has no text to check)."""
    passage = passage_of(citation.source)
    if not passage:
        return []
    by_claim: dict[str, tuple[Support, str | None]] = {}
    out: list[ScoredMark] = []
    for mark, claim in cited_by:
        known = by_claim.get(claim.text)
        if known is None:
            support = source_support(scorer, citation.source, claim.text)
            quote = record_quote(citation.source, claim.text) or support.quote
            known = by_claim[claim.text] = (support, quote)
        support, quote = known
        # a plug-in scorer may stray outside 0..1 (or give NaN); the stored answer must stay
        # loadable
        value = support.score
        score = min(1.0, max(0.0, value)) if value == value else 0.0
        out.append(ScoredMark(mark, claim, support, score, quote))
    return out


def _checked(citation: Citation, scored: Sequence[ScoredMark]) -> Citation:
    """``citation`` with its support, claim, quote and link from its scored occurrences.

    A source is cited by each of its markers separately, so the weakest occurrence decides:
    a sentence the source backs gave the invented one beside it its score. ``support`` and
    ``claim`` are the weakest occurrence's; the quote (one per source) is the best-backed
    occurrence's sentence, the evidence a reader should see.
    """
    if not scored:
        return citation
    weakest = min(scored, key=lambda o: o.score)
    best = best_of(scored)
    passage = passage_of(citation.source)
    quote = citation.quote
    link = citation.deep_link
    if not quote or quote.lower() not in passage.lower():
        # The resolver built the old link from the model's quote, which the passage does not
        # hold: a browser would highlight nothing (or the wrong words). Link the new quote, or
        # only the place (a PDF page) when there is none.
        quote = best.quote
        link = deep_link(citation.source, quote) or deep_link(citation.source)
    elif quote:
        link = deep_link(citation.source, quote) or link
    return replace(
        citation,
        support=weakest.score,
        claim=weakest.claim.text,
        quote=quote,
        deep_link=link,
    )


def _citation_marks(text: str) -> list[re.Match[str]] | None:
    """The ``[^n]`` of ``text`` that are citations, as the renderers' parser reads them; None
    when no reading of the text by lines agrees with the parser (nothing may be renumbered)."""
    expected = citations_in(parse(text))
    marks = list(CITATION_RE.finditer(text))
    if [int(m.group(1)) for m in marks] == expected:
        # Every citation the parser reads is one of these literal ``[^n]``, in text order; as
        # many as there are, it reads them all, in these places: no probe parse is needed.
        return marks
    for candidate in (mask_code(text), text):
        marks = list(CITATION_RE.finditer(candidate))
        if [int(m.group(1)) for m in marks] == expected and _same_places(text, marks):
            return marks
    return None


def _placed(text: str) -> dict[int, list[int]] | None:
    """Each citation number's marker offsets in ``text`` as the renderers read them."""
    marks = _citation_marks(text)
    return None if marks is None else positions(marks)


# Numbers no answer uses (the parser reads at most five digits), one per mark of a probe.
_PROBE = 90_000


def _same_places(text: str, marks: list[re.Match[str]]) -> bool:
    """Whether the parser reads exactly ``marks`` as the citations of ``text``, not only the
    same numbers: a reading may see the same sequence in other places (a marker inside a code
    span the parser joins across lines, and another the reading took for code), and
    renumbering by it would change code and leave a citation pointing at a number gone."""
    if len(marks) >= 100_000 - _PROBE:
        return True  # too many to label; the numbers matched
    pieces, cursor = [], 0
    for i, mark in enumerate(marks):
        pieces += [text[cursor : mark.start()], f"[^{_PROBE + i}]"]
        cursor = mark.end()
    probe = "".join(pieces) + text[cursor:]
    return citations_in(parse(probe)) == [_PROBE + i for i in range(len(marks))]


def _drop_unsupported(
    answer: Answer, scored: dict[int, list[ScoredMark]], threshold: float
) -> Answer:
    """Remove each marker whose own claim its source does not back (and a citation none of
    whose markers is backed); the rest are renumbered 1..k by first appearance."""
    weak_marks = {o.mark for group in scored.values() for o in group if o.score < threshold}
    # a citation none of whose checked markers is backed goes whole, unchecked markers too
    weak = {n for n, group in scored.items() if group and all(o.score < threshold for o in group)}
    marks = _citation_marks(answer.text) if weak_marks else []
    if marks is None:
        # Renumbering by offsets that are not the citations would move a number onto another
        # source: keep the answer whole (its weak citations stay marked weak).
        log.warning("grounding: cannot place the citations of an answer; nothing dropped")
        checked = tuple(_checked(c, scored[c.n]) for c in answer.citations)
        return replace(answer, citations=checked)  # (nor placed: one quote per citation)
    placed = {match.start() for match in marks}
    # an occurrence no mark is at cannot be removed: its citation keeps it and its score
    kept_scores = {
        n: [o for o in group if o.mark not in weak_marks or o.mark not in placed or n in weak]
        for n, group in scored.items()
    }

    def dropping(match: re.Match[str]) -> bool:
        return int(match.group(1)) in weak or match.start() in weak_marks

    if not any(dropping(match) for match in marks):
        checked = with_occurrences(
            (_checked(c, kept_scores[c.n]) for c in answer.citations),
            kept_scores,
            threshold,
            lambda: positions(marks) if weak_marks else _placed(answer.text),
        )
        return replace(answer, citations=checked)
    keep_order: list[int] = []
    for match in marks:
        n = int(match.group(1))
        if not dropping(match) and n not in keep_order:
            keep_order.append(n)
    renumber = {old: new for new, old in enumerate(keep_order, start=1)}
    # Whether a kept marker follows in the same group ("[^3][^1]"): then the space before the
    # group stays for it ("fact [^3][^1]." -> "fact [^1].", not "fact[^1].").
    kept_next = [False] * len(marks)
    for i in range(len(marks) - 2, -1, -1):
        if marks[i + 1].start() == marks[i].end():
            kept_next[i] = not dropping(marks[i + 1]) or kept_next[i + 1]
    pieces: list[str] = []
    dropped: list[Dropped] = []
    cursor = 0
    for i, match in enumerate(marks):
        n = int(match.group(1))
        start = match.start()
        if dropping(match):
            # Removing a marker also removes the space before it ("fact [^3]." -> "fact.").
            trimmed = start
            while not kept_next[i] and trimmed > cursor and answer.text[trimmed - 1] in " \t":
                trimmed -= 1
            pieces.append(answer.text[cursor:trimmed])
            dropped.append(Dropped(marker=match.group(0), reason="unsupported", offset=start))
        else:
            pieces.append(answer.text[cursor:start])
            pieces.append(f"[^{renumber[n]}]")
        cursor = match.end()
    pieces.append(answer.text[cursor:])
    # occurrences by the old numbers: the k-th kept marker of a number is its k-th one now
    checked = with_occurrences(
        (_checked(c, kept_scores[c.n]) for c in answer.citations if c.n in renumber),
        kept_scores,
        threshold,
        lambda: positions(marks, lambda match: not dropping(match)),
    )
    kept = tuple(replace(c, n=renumber[c.n]) for c in sorted(checked, key=lambda c: renumber[c.n]))
    return replace(
        answer, text="".join(pieces), citations=kept, dropped=answer.dropped + tuple(dropped)
    )


def uncited_claims(text: str, read: Sequence[Sentence] | None = None) -> list[str]:
    """Sentences that state a fact (a number, or enough content words) and cite nothing
    (``read``: ``sentences(text)`` when the caller has them already)."""
    out: list[str] = []
    for sentence in sentences(text) if read is None else read:
        plain = sentence.text
        if sentence.numbers or plain.endswith(_NOT_A_STATEMENT) or _NOT_FOUND_RE.search(plain):
            continue
        if number_values(plain) or len(content_terms(plain)) >= _MIN_FACT_TERMS:
            out.append(plain)
    return out


__all__ = [
    "EvidenceSource",
    "GroundingPolicy",
    "passage_of",
    "record_quote",
    "scorer_factory",
    "source_support",
    "uncited_claims",
    "verify",
]
