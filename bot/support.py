"""Support scoring: how well a passage backs a claim, offline on a CPU.

The default :class:`LexicalScorer` needs no model download. It weighs the claim's content words
by their rarity in the turn's evidence (BM25-style inverse document frequency), measures how much
of that weight the best window of one or two passage sentences covers, and applies hard checks:
every number in the claim must appear in the passage (with a matching unit where both give one:
time, percent, bytes), a repetition count ("answered twice") must not contradict the passage's
count of the same word ("answered once", :mod:`bot.text_counts`), a stated frequency ("every
minute", "nightly") must not contradict the passage's, and every quoted phrase and code span
must appear verbatim. Polarity is checked both ways (:mod:`bot.support_polarity`) and counts
for no more than a failed hard check when it fails: a negated claim needs a sentence negating
the same statement, and is capped where the passage states it plainly ("It supports OIDC login"
for "does not support OIDC login"); a positive claim is capped where the sentence it is about
negates it ("Links are not stored on disk"), and the words a passage only negates ("No system
database ... is needed") do not back it (:func:`bot.text_terms.affirmed_terms`). A capped claim
is still quoted with the sentence it is about.

A team can plug in an NLI or embedding model instead: anything with
``entails(premise, hypothesis) -> float`` in 0..1 is a :class:`SupportScorer`, and
``grounding.backend: "package.module:factory"`` in config names a factory that takes the turn's
evidence texts and returns one.
"""

from __future__ import annotations

import importlib
import itertools
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from bot.errors import ConfigError
from bot.sentence_rules import stop_ends_sentence
from bot.support_checks import ClaimFacts, PremiseFacts, facts_agree
from bot.support_checks import hard_checks_pass as hard_checks_pass
from bot.support_polarity import (
    Statement,
    negated_window_value,
    negating_sentence,
    opposite_statement,
    polarity_conflict,
)
from bot.support_windows import window_terms
from bot.text_sentences import script_cuts
from bot.text_terms import (
    affirmed_terms,
    denied_terms,
    has_cjk_sentence_end,
    term_set,
)

# Where a sentence may end; a "." there ends one only by bot.sentence_rules ("Dr. Weber",
# "am 3. Oktober" and "J. Smith" are one sentence each), as the claim splitter reads an answer.
_SENTENCE_SPLIT_RE = re.compile(r"(?<=[.!?])\s+")
# CJK sentences end at 。！？ with no space after them (a closing quote or bracket stays with
# the sentence); without this a Chinese or Japanese passage was one "sentence", its whole quote.
_CJK_SENTENCE_SPLIT_RE = re.compile(r"(?<=[.!?])\s+|(?<=[。！？｡])(?![」』）〕】\"'”’)。！？｡])\s*")
# A line that starts a block of its own (list item, heading, table row, quote, fence): a
# passage's sentences end before it. Any other line continues its paragraph (a soft wrap).
_BLOCK_START_RE = re.compile(
    r"^\s{0,3}(?:[-*+](?:\s|$)|\d{1,9}[.)](?:\s|$)|#{1,6}(?:\s|$)|>|\||```|~~~)"
)
# After a heading or table row the next line starts a new block too.
_BLOCK_LINE_RE = re.compile(r"^\s{0,3}(?:#{1,6}(?:\s|$)|\|)")
# A claim that names a number or quote the passage lacks can score at most this much.
HARD_CHECK_CAP = 0.15
_LONGER_QUOTE_MARGIN = 0.05


class SupportScorer(Protocol):
    """Scores how strongly ``premise`` supports ``hypothesis`` (0 = not at all, 1 = fully)."""

    def entails(self, premise: str, hypothesis: str) -> float:
        """The support score in 0..1."""
        ...


ScorerFactory = Callable[[Sequence[str]], SupportScorer]


@dataclass(frozen=True)
class Support:
    """A claim's best support in one passage: the score and the sentence(s) that give it."""

    score: float
    quote: str | None


@dataclass(frozen=True)
class _Passage:
    """What the lexical scorer reads from a passage, once per turn: a passage is cited by many
    claims, and its sentences, windows' terms and hard-check facts do not depend on the claim."""

    parts: tuple[str, ...]
    denies: bool  # whether a sentence only negates some of its words
    windows: dict[str, frozenset[str]]
    facts: PremiseFacts

    @classmethod
    def of(cls, passage: str) -> _Passage:
        parts = passage_sentences(passage)
        denies = any(denied_terms(s) for s in parts)
        return cls(parts, denies, window_terms(parts), PremiseFacts.of(passage))


class LexicalScorer:
    """Rarity-weighted content-word coverage plus hard number and quote checks."""

    def __init__(self, evidence: Iterable[str] = ()) -> None:
        documents = [term_set(text) for text in evidence]
        self._count = len(documents)
        self._df: Counter[str] = Counter()
        for terms in documents:
            self._df.update(terms)
        self._weights: dict[str, float] = {}
        self._passages: dict[str, _Passage] = {}

    def weight(self, term: str) -> float:
        """BM25's inverse document frequency of ``term`` over the turn's evidence (>= 0.2)."""
        cached = self._weights.get(term)
        if cached is None:
            df = self._df.get(term, 0)
            cached = max(math.log(1.0 + (self._count - df + 0.5) / (df + 0.5)), 0.2)
            self._weights[term] = cached
        return cached

    def in_every_text(self, term: str) -> bool:
        """Whether ``term`` is in every evidence text of the turn (and there are two or more):
        a word that tells none of them apart, such as the product's name."""
        return self._count > 1 and self._df.get(term, 0) >= self._count

    def entails(self, premise: str, hypothesis: str) -> float:
        """Coverage of the hypothesis' weighted content words by the premise, hard-checked."""
        claim_terms = term_set(hypothesis)
        if not claim_terms:
            return 0.0
        statement = Statement.of(hypothesis, self.weight)
        # a positive claim is not backed by words the premise only negates
        premise_terms = term_set(premise) if statement.scope else affirmed_terms(premise)
        total = sum(self.weight(t) for t in claim_terms)
        covered = sum(self.weight(t) for t in claim_terms & premise_terms)
        score = covered / total
        if not hard_checks_pass(premise, hypothesis) or polarity_conflict(
            statement, passage_sentences(premise)
        ):
            score = min(score, HARD_CHECK_CAP)
        return round(score, 4)

    def best_support(self, passage: str, claim: str) -> Support:
        """``best_support`` for this scorer: term sets and weights computed once per claim.

        The hard checks look at the whole passage (a number stated in the next sentence still
        counts), so they run once instead of once per window.
        """
        read = self._passages.get(passage)
        if read is None:
            read = self._passages[passage] = _Passage.of(passage)
        parts = read.parts
        statement = Statement.of(claim, self.weight)
        if not statement.weights or not parts:
            return Support(0.0, None)

        # a positive claim is not backed by words the window only negates ("No system
        # database ... is needed" for "needs a database server")
        negating = not statement.scope and read.denies
        # a window's terms are its sentences' (no term spans the space that joins them)
        known: dict[str, frozenset[str]] = {} if negating else read.windows
        read_terms = affirmed_terms if negating else term_set

        def coverage(window: str) -> float:
            terms = known.get(window)
            return statement.coverage(read_terms(window) if terms is None else terms)

        # a coverage is at most 1: a sentence holding every word of the claim ends the search
        best = best_window(parts, coverage, ceiling=1.0)
        if statement.scope:
            # each window's sentences, so that polarity is judged sentence by sentence
            windows: dict[str, tuple[str, ...]] = {s: (s,) for s in parts}
            windows.update({f"{a} {b}": (a, b) for a, b in itertools.pairwise(parts)})
            windows[" ".join(parts)] = parts
            best = _negated_best(statement, parts, windows, best, coverage)
        elif best.quote and negating_sentence(statement, _window_sentences(parts, best.quote)):
            # the window the claim is about says the opposite ("Links are not stored on disk")
            best = Support(min(best.score, HARD_CHECK_CAP), best.quote)
        if not facts_agree(read.facts, ClaimFacts.of(claim)):
            return Support(min(best.score, HARD_CHECK_CAP), best.quote)
        return best


def _window_sentences(parts: Sequence[str], quote: str) -> tuple[str, ...]:
    """The passage sentences of a window's quote (one sentence, or two joined by a space)."""
    if quote in parts:
        return (quote,)
    for first, second in itertools.pairwise(parts):
        if quote == f"{first} {second}":
            return (first, second)
    return (quote,)


def _negated_best(
    statement: Statement,
    parts: Sequence[str],
    windows: dict[str, tuple[str, ...]],
    by_content: Support,
    coverage: Callable[[str], float],
) -> Support:
    """A negated claim's best window (``by_content`` is its best by coverage alone).

    Capped, and quoted where the passage says otherwise, when a passage sentence states the
    claim positively, or when the window the claim is about mentions its negated words without
    negating them; otherwise the best window counting only words from sentences that agree.
    """
    opposite = opposite_statement(statement, parts)
    if opposite is not None:
        return Support(min(by_content.score, coverage(opposite), HARD_CHECK_CAP), opposite)
    about = windows.get(by_content.quote or "", ())
    if any(statement.mentions(s) for s in about) and not any(statement.negates(s) for s in about):
        # the sentence the claim is about is its quote, even though it does not back it
        return Support(min(by_content.score, HARD_CHECK_CAP), by_content.quote)
    return best_window(
        parts,
        lambda window: negated_window_value(statement, windows[window], HARD_CHECK_CAP),
        ceiling=1.0,
    )


@lru_cache(maxsize=4_096)
def passage_sentences(text: str) -> tuple[str, ...]:
    """The passage split into sentences, empty ones removed.

    Sentences end at ``.``, ``!`` or ``?`` before whitespace (or CJK ``。！？``), where the
    knowledge reader ends them in other scripts (the Hindi ``।``, the Arabic ``؟``, a Greek
    ``;`` between Greek words, a full stop before ``”’»``), at a blank
    line and where a line starts a block (list item, heading, table row, block quote, fence),
    but not at a soft wrap inside a paragraph: Markdown wraps its lines, and a quote cut there
    ("smaller passages give more precise citations, larger ones") was a fragment. The lines of
    a paragraph join with one space, as a browser shows them, so a quote's text fragment
    (``#:~:text=``) still matches the page. A ``.`` that closes an abbreviation, an initial or
    a date's ordinal (``Dr. Weber``, ``J. Smith``, ``am 3. Oktober``) ends none, by the rule
    the claim splitter reads an answer with (:func:`bot.sentence_rules.stop_ends_sentence`):
    a claim and the passage sentence that backs it are cut alike.
    """
    pattern = _CJK_SENTENCE_SPLIT_RE if has_cjk_sentence_end(text) else _SENTENCE_SPLIT_RE
    out: list[str] = []
    for block in _paragraphs(text):
        pieces = _split_block(block, pattern)
        out.extend(part.strip() for part in pieces if part and part.strip())
    return tuple(out)


def _split_block(block: str, pattern: re.Pattern[str]) -> list[str]:
    """``block`` cut at ``pattern``'s matches whose mark ends a sentence (not "Dr.", "J." or
    "3." before "Oktober"), and, in a block that is not ASCII, where the knowledge reader ends
    a sentence in other scripts (:func:`bot.text_sentences.script_cuts`: ``।``, ``؟``, a Greek
    ``;``, a full stop before ``”’»``)."""
    cuts = [
        (match.start(), match.end())
        for match in pattern.finditer(block)
        # (the mark is the character before the match)
        if stop_ends_sentence(block, match.start() - 1)
    ]
    if block.isascii():
        # (cut in order already: the fast path for English, which has no script cuts)
        return _pieces(block, cuts)
    return _pieces(block, sorted(set(cuts).union(script_cuts(block))))


def _pieces(block: str, cuts: Sequence[tuple[int, int]]) -> list[str]:
    """``block`` cut at each ``(end, next_start)`` of ``cuts`` (sorted; a cut inside the
    previous one's span is skipped)."""
    pieces: list[str] = []
    start = 0
    for end, next_start in cuts:
        if end >= start:
            pieces.append(block[start:end])
            start = next_start
    pieces.append(block[start:])
    return pieces


def _paragraphs(text: str) -> list[str]:
    """The blocks of ``text``, each one line: soft-wrapped lines joined with one space."""
    blocks: list[list[str]] = []
    current: list[str] = []
    in_fence = False
    for line in text.splitlines():
        stripped = line.strip()
        fence = stripped.startswith(("```", "~~~"))
        if not stripped or fence or in_fence or _BLOCK_START_RE.match(line):
            if current:
                blocks.append(current)
            current = [stripped] if stripped else []
            if fence:
                in_fence = not in_fence
            if in_fence or fence or _BLOCK_LINE_RE.match(line):
                # a code line, a heading or a table row is a block of its own
                if current:
                    blocks.append(current)
                current = []
            continue
        current.append(stripped)
    if current:
        blocks.append(current)
    return [" ".join(lines) for lines in blocks]


def best_support(scorer: SupportScorer, passage: str, claim: str) -> Support:
    """The best window of one or two consecutive passage sentences for ``claim``.

    The whole passage also counts (slightly discounted, since its quote would be too long to
    point at), so evidence spread over a paragraph is not missed; its quote stays the best
    single sentence. The lexical scorer takes a fast path with the same windows.
    """
    if isinstance(scorer, LexicalScorer):
        return scorer.best_support(passage, claim)
    parts = passage_sentences(passage)
    if not parts or not claim.strip():
        return Support(0.0, None)
    return best_window(parts, lambda window: scorer.entails(window, claim))


def best_window(
    parts: Sequence[str], score: Callable[[str], float], ceiling: float | None = None
) -> Support:
    """Pick the best single sentence; a pair or the whole passage must do clearly better.

    A pair's quote joins its two sentences with one space, whatever whitespace separated them.
    ``ceiling``, when given, is the most ``score`` can give: once a sentence is within the
    margin of it, no pair or whole passage can do clearly better, and they are not scored.
    """
    best = Support(0.0, None)
    for sentence in parts:
        value = score(sentence)
        if value > best.score + 1e-9:
            best = Support(value, sentence)
    if ceiling is not None and best.score + _LONGER_QUOTE_MARGIN >= ceiling:
        return Support(round(best.score, 4), best.quote)
    # A shorter quote points more precisely at the evidence, so longer ones need a margin.
    for first, second in itertools.pairwise(parts):
        window = f"{first} {second}"
        value = score(window)
        if value > best.score + _LONGER_QUOTE_MARGIN:
            best = Support(value, window)
    whole = score(" ".join(parts)) * 0.9
    if whole > best.score + _LONGER_QUOTE_MARGIN:
        best = Support(whole, best.quote or parts[0])
    return Support(round(best.score, 4), best.quote)


def scorer_factory(backend: str) -> ScorerFactory:
    """The factory for ``grounding.backend``: ``lexical`` or ``package.module:callable``."""
    if backend == "lexical":
        return LexicalScorer
    module_name, _, attribute = backend.partition(":")
    if not module_name or not attribute:
        raise ConfigError(
            f"grounding.backend: expected 'lexical' or 'module:factory', got {backend!r}"
        )
    try:
        factory = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as exc:
        raise ConfigError(f"grounding.backend: cannot load {backend!r}: {exc}") from None
    if not callable(factory):
        raise ConfigError(f"grounding.backend: {backend!r} is not callable")
    # Tried once at load, so a factory with the wrong signature, or one that returns no
    # scorer, stops the start in one line instead of failing every answer with a traceback.
    try:
        scorer = factory([])
    except Exception as exc:
        raise ConfigError(
            f"grounding.backend: {backend!r} failed when called with a list of evidence texts: "
            f"{type(exc).__name__}: {exc}"
        ) from None
    if not callable(getattr(scorer, "entails", None)):
        raise ConfigError(
            f"grounding.backend: {backend!r} returned a {type(scorer).__name__}, which has no "
            "entails(premise, hypothesis) method"
        )
    return factory  # type: ignore[no-any-return]
