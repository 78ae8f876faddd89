"""The forms of a question word to search for, so FTS5's Porter tokens meet our stemmer.

The index stems with FTS5's Porter tokenizer, the answerer with :func:`bot.knowledge.stemmer.stem`,
and they disagree on a few words: Porter reads "status" as "statu" but "statuses" as "status",
"bus" as "bu" but "buses" as "buse", "embed" as "emb" but "embedded" as "embed", "queue" as
"queue" but "queued" as "queu", and "goes", "aliases", "lenses" likewise. A question using one
form found nothing in a passage that writes the other, though the answerer would accept it.

:func:`search_forms` gives the word and each of its forms (plurals, "-ed", "-ing") that our
stemmer reads as the same word but Porter reads as another token: searching them all (ORed)
finds the passage whichever form either side writes. A spelling is a form only when our
stemmer gives it the word's own stem: searching the stem itself would find other words, as
Porter reads a stem as it reads any word ("lapse" has the stem "laps", which Porter reads as
"lap"; "laps" is no form of "lapse", as its stem is "lap"). Forms Porter already reads alike are
searched once: BM25 sums every phrase of a query, so the same token twice would double the
word's weight. For most words every form is one token and the word is searched as before.

What this cannot do: a word Porter reads as another word's token ("news" as "new") matches
that word in the index whatever the question says; telling them apart needs the index to hold
our stems (a rebuild).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from bot.knowledge.fts_tokens import fts_tokens
from bot.knowledge.stemmer import stem

_MAX_FORMS = 4
_VOWELS = frozenset("aeiouy")
_SIBILANT_OR_O = ("s", "x", "z", "ch", "sh", "o")
# consonants an English word doubles before "-ed" and "-ing" ("embedded", "stopped")
_DOUBLING = frozenset("bdgmnprt")


def porter_tokens(words: Sequence[str]) -> list[str]:
    """The token FTS5's ``porter unicode61`` tokenizer indexes each of ``words`` (each one
    ASCII word) as; a word it reads as no token or several stands for itself."""
    found = fts_tokens(words, "porter unicode61")
    return [t[0] if len(t) == 1 else w for t, w in zip(found, words, strict=True)]


def porter_token(word: str) -> str:
    """The token FTS5's Porter tokenizer indexes ``word`` as (:func:`porter_tokens`)."""
    return porter_tokens([word])[0]


def _inflections(base: str) -> list[str]:
    """English spellings of ``base`` (a word, or a stem such as "approv") and its inflections:
    the plural or third person, "-ed" and "-ing"."""
    out = [base, base + ("es" if base.endswith(_SIBILANT_OR_O) else "s")]
    if base.endswith("e"):
        return [*out, base + "d", base[:-1] + "ing"]  # "queued", "queuing"
    if len(base) > 2 and base.endswith("y") and base[-2] not in _VOWELS:
        out += [base[:-1] + "ies", base[:-1] + "ied"]
    if len(base) > 2 and base[-1] in _DOUBLING and base[-2] in _VOWELS and base[-3] not in _VOWELS:
        out += [base + base[-1] + "ed", base + base[-1] + "ing"]  # "embedded", not "needded"
    return [*out, base + "ed", base + "ing"]


def search_forms(word: str) -> tuple[str, ...]:
    """``word`` first, then its forms that Porter indexes as other tokens (at most three).

    Only ASCII words of letters are expanded (as :func:`bot.knowledge.terms.query_terms`
    gives them, lower-cased): Porter stems nothing else, and our stemmer is English.
    "statuses" gives ``("statuses", "status")``, "bus" ``("bus", "buses")``, "kettle"
    ``("kettle",)``.
    """
    return tuple(form for form, _ in _forms(word))


@functools.lru_cache(maxsize=16384)
def _forms(word: str) -> tuple[tuple[str, str], ...]:
    """:func:`search_forms` of ``word``, each with its Porter token (``word``'s own is itself
    when it is not expanded)."""
    if not (word.isascii() and word.isalpha() and len(word) > 1):
        return ((word, word),)
    own = stem(word)
    inflections = _inflections(own)
    # The stem itself is a spelling only when the word is one of its inflections ("statuses"
    # of "status"), not a stem cut short ("anywhere": "anywher").
    candidates = inflections if word in inflections else inflections[1:]
    candidates = [c for c in dict.fromkeys(candidates) if c != word and stem(c) == own]
    first, *tokens = porter_tokens([word, *candidates])
    forms = [(word, first)]
    seen = {first}
    for candidate, token in zip(candidates, tokens, strict=True):
        # An inflection Porter cuts shorter than the word is read as another word: "apped" of
        # "app" is "ap".
        if token not in seen and (candidate == own or len(token) >= max(3, len(first) - 1)):
            seen.add(token)
            forms.append((candidate, token))
            if len(forms) == _MAX_FORMS:
                break
    return tuple(forms)


def query_forms(terms: Sequence[str]) -> list[tuple[str, tuple[str, ...]]]:
    """Each of ``terms`` (:func:`bot.knowledge.terms.query_terms`) with its :func:`search_forms`,
    less the added forms whose token the question already searches: "status statuses" searches
    "status" and "statuses" as before, not each twice. A term itself is always searched."""
    found = [_forms(term) for term in terms]
    seen = {forms[0][1] for forms in found}
    out: list[tuple[str, tuple[str, ...]]] = []
    for term, forms in zip(terms, found, strict=True):
        kept = [term]
        for form, token in forms[1:]:
            if token not in seen:
                seen.add(token)
                kept.append(form)
        out.append((term, tuple(kept)))
    return out
