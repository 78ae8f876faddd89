"""Follow-up questions in a conversation: whose words decide the topic.

"And Slack?" after "How do I install citecast on Linux?" asks about Slack. The follow-up's own
words decide the topic whenever they find something; the earlier questions only add words that
weigh less and never decide (so "And on macOS?" after the Linux question still prefers macOS
install steps over other macOS sentences). Only a follow-up whose own words find nothing ("And
then?", or a word found only in code) is searched together with the earlier questions; one
whose word the knowledge base lacks altogether ("And SSO?") is not found (see
:mod:`bot.assistant.extractive`), rather than answered with the earlier answer again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.knowledge.terms import query_terms, stem, words
from bot.models import Exchange, Source


def is_follow_up(terms: Sequence[str], history: Sequence[Exchange]) -> bool:
    """A question of fewer than two search words, asked after an earlier turn."""
    return len(terms) < 2 and bool(history)


def earlier_questions(history: Sequence[Exchange]) -> str:
    """The earlier questions a follow-up continues: the latest one that stands on its own (two
    or more search words) and the follow-ups asked after it, oldest first."""
    kept: list[str] = []
    for exchange in reversed(history):
        kept.append(exchange.question)
        if len(query_terms(exchange.question)) >= 2:
            break
    return " ".join(reversed(kept))


def stems_of(terms: Iterable[str]) -> frozenset[str]:
    """The stems of ``terms``."""
    return frozenset(stem(t) for t in terms)


def mentions(source: Source, stems: frozenset[str]) -> bool:
    """Whether ``source``'s text or its own (innermost) heading contains one of ``stems``: a
    word of the document's title alone ("Slack and Discord FAQ") does not make every passage
    of it about that word."""
    heading = (source.section or "").rsplit(" > ", 1)[-1]
    text = f"{heading} {source.text or ''}"
    return any(stem(w) in stems for w in words(text))


def merge_passages(
    stems: frozenset[str], together: Sequence[Source], alone: Sequence[Source], limit: int
) -> list[Source]:
    """At most ``limit`` passages for a follow-up whose own words are ``stems``: those the
    search with the earlier questions (``together``) found that mention the follow-up's words,
    then what the follow-up alone found, then the rest of ``together`` (a parent section, say,
    whose steps apply to the section the follow-up names)."""
    first = [s for s in together if mentions(s, stems)]
    rest = [s for s in together if not mentions(s, stems)]
    merged: dict[str, Source] = {}
    for source in (*first, *alone, *rest):
        merged.setdefault(source.id, source)
    return list(merged.values())[:limit]
