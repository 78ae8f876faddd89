"""Compounds in the extractive answerer: "2.4.1", "config.yaml", "Retry-After" as one word.

:func:`bot.knowledge.terms.words` splits "1.4.2" into "1", "4" and "2", which "2.4.1" and "wait
1 second, then 2, then 4" have too. So the answerer asks for a compound of the question
(:func:`bot.knowledge.terms.compound_terms`, its words joined by one space: ``"1 4 2"``) as one
term, which only a sentence or heading that writes it holds, and its parts are not question
words of their own (unless the question also uses one outside any compound).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Sequence

from bot.assistant.extractive_keys import word_key
from bot.knowledge.cjk import CJK_RUN, has_cjk
from bot.knowledge.terms import compound_terms, query_terms, words

# the separators a compound is written with (as in bot.knowledge.terms)
_JOINER = r"(?:[._/-]|,(?=\d))"


def is_compound(term: str) -> bool:
    """Whether ``term`` (from :func:`answer_terms`) is a compound rather than one word."""
    return " " in term


def term_key(term: str) -> str:
    """The key a question term is matched by: a word's stem with its accents folded
    (:func:`bot.assistant.extractive_keys.word_key`), a compound as it is."""
    return term if is_compound(term) else word_key(term)


def answer_terms(question: str) -> list[str]:
    """The question's terms as the answerer weighs them: :func:`query_terms`, each compound
    (``"1 4 2"``) in the place of its first part and its parts left out.

    A part stays a term of its own when the question also writes it outside the compound
    ("Is config.yaml the only config file?" keeps "config").
    """
    compounds = compound_terms(question)
    terms = query_terms(question)
    if not compounds:
        return terms
    inside: Counter[str] = Counter()
    plain = CJK_RUN.sub(" ", question) if has_cjk(question) else question
    for compound in compounds:
        count = len(_pattern(compound).findall(plain))
        for part in compound.split():
            inside[part] += count
    said = Counter(words(question))
    out: dict[str, None] = {}
    for term in terms:
        for compound in compounds:
            if term in compound.split():
                out.setdefault(compound, None)
        if said[term] > inside[term]:
            out.setdefault(term, None)
    return list(out)


def written(compounds: Sequence[str], text: str) -> frozenset[str]:
    """The ``compounds`` that ``text`` writes, with any separator ("1.4.2", "1-4-2", "v1.4.2")
    and not inside a longer one of words or digits ("1.4.2" is not in "11.4.2" or "1.4.23")."""
    if not compounds:
        return frozenset()
    # as in compound_terms, a CJK run is no part of a compound but ends one ("ファイルconfig.yaml")
    if has_cjk(text):
        text = CJK_RUN.sub(" ", text)
    return frozenset(c for c in compounds if _pattern(c).search(text))


@functools.lru_cache(maxsize=1024)
def _pattern(compound: str) -> re.Pattern[str]:
    parts = compound.split()
    # a version is often written with a "v" before it ("v1.4.2")
    lead = r"(?<![^\W_])v?" if parts[0].isdigit() else r"(?<![^\W_])"
    body = _JOINER.join(re.escape(part) for part in parts)
    return re.compile(lead + body + r"(?![^\W_])", re.IGNORECASE)
