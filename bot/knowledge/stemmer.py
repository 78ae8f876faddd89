"""A light English stemmer: the forms of a word that a question and a passage should share.

The FTS5 index stems with its own Porter tokenizer; this stemmer is what the extractive answerer,
the grounding checks and the search's re-ranking boosts compare words by. It follows the first
step of Porter's algorithm (plurals, "-ed" and "-ing") with its two repairs, so every form of a
verb or noun ends on one stem:

- a final "e" is dropped unless the word is short, one vowel then one consonant before the
  "e" ("approve", "approves", "approved", "approving": "approv"; "use", "hope", "store" keep
  it, so "use" stays apart from "us", "hope" from "hop", "note" from "not"), or has no vowel
  followed by a consonant before it ("blue", "see");
- "-ed" and "-ing" undo the doubled consonant ("running": "run", "planned": "plan") or, after a
  short stem, put the "e" back ("using": "use", "hoping": "hope", "stored": "store"), as they
  do after a stem of no syllable that ends in "u" ("queued", "queuing": "queue"; "glued": "glue");
- "-eed" is "-ee" + "d" after a syllable ("agreed": "agree"), a word of its own after none
  ("need", "speed", "feed"), as in Porter's algorithm.

Latin singulars in "-us" keep their "s" ("status", "focus", "bonus" meet "statuses",
"focuses", "bonuses"); the plural of an acronym ("CPUs", "SKUs") and a few "-u" nouns ("menus")
lose it. Singulars that end like a plural ("news", "alias", "lens", "bus"), the plurals of short
ones ("buses", "gases"), "goes" and "embed" (which "embedded" shows is no "-ed" form) are listed:
no rule of this size tells "buses" (bus + es) from "fuses" (fuse + s).

A noun made from a verb is read as the verb, as the index's Porter stemmer reads it, when what
is left has two syllables or more (Porter's measure): "configuration", "installation",
"deletion", "approval", "requirement" meet "configure", "install", "delete", "approve",
"require", as "validation" and "validate" meet "valid". Only the endings that name the act of
the verb are read so ("-ation", "-tion"/"-sion", "-al" after "v", "w" or "s", "-ment"): "-ition"
nouns ("edition", "position") and short ones ("station", "option", "question", "payment",
"legal") keep their word, as do a few nouns of another sense than their verb ("production",
"exception", "department"). The search finds such a passage by either form, so a question that
says "approval" must be answered by the sentence that says "approved".

A possessive ("document's", "document’s", "users'") is its word. Words that are not English
(numbers, CJK terms) have no such ending and come back as they are.
"""

from __future__ import annotations

import functools
import re

# A trailing "'s", "’s" or bare apostrophe after a letter or digit: "document's", "users'".
_POSSESSIVE = re.compile(r"(?<=[^\W_])['’]s?\Z")
# "-al" nouns of verbs end in these ("approval", "renewal", "refusal"); adjectives end in others
# ("legal", "general", "internal", "manual", "special"), whose words are not the word less "-al".
_VERB_AL = ("val", "wal", "sal")
# Nouns whose verb or stem names another thing ("production" is no "product", "exception" no
# "except", "department" no "depart"): Porter reads them as one, a sentence must not.
_OWN_NOUNS = frozenset(
    {"production", "projection", "exception", "direction", "convention", "department"}
    | {"apartment", "universal"}
)
_INFLECTIONS = ("ingly", "ing", "edly", "ed")
_VOWEL = re.compile(r"[aeiouy]")
# A syllable: a vowel then a consonant. A word without one before its final "e" keeps the "e"
# ("blue", "true", "see", "free"): dropped, it would leave a stem of no syllable at all.
_SYLLABLE = re.compile(r"[aeiouy][^aeiouy]")
# A short stem: one vowel then one consonant other than w, x and y ("us", "hop", "stor",
# "typ"), which keeps its final "e"; after the vowel, a longer stem ("chang", "approv") drops it.
_SHORT = re.compile(r"[^aeiouy]*[aeiouy][^aeiouwxy]")
# Consonants doubled before "-ed"/"-ing" ("stopped"); not "ll", "ss", "zz" or "ff", which the
# word itself ends in ("installed", "passed", "staffed").
_DOUBLED = ("bb", "dd", "gg", "mm", "nn", "pp", "rr", "tt")
# Ends like a plural or an "-ed" form, but is not one: "news" (Porter2 keeps it too), singulars
# in "-s" whose plural drops the "e" of "-es" ("aliases": "alias", like "boxes": "box"), and
# verbs in "-ed" ("embedded": "embed").
_INVARIANT = frozenset(
    {"news", "alias", "bias", "atlas", "canvas", "gas", "lens", "bus", "plus", "yes", "chaos"}
    | {"embed", "imbed"}
)
# The "-es" plurals of a short word, which read as a short word's "-e" plural ("fuses": "fuse"),
# and "goes" ("toes" is "toe").
_IRREGULAR = {
    "buses": "bus",
    "busses": "bus",
    "gases": "gas",
    "pluses": "plus",
    "goes": "go",
    "does": "do",
}
# A Latin singular in "-us" after a syllable keeps its "s" ("status", "focus", "campus"); these
# are plurals of "-u" nouns. An acronym's plural has no vowel before its "us" ("cpus", "skus").
_U_PLURALS = frozenset({"menus", "gurus", "emus", "haikus", "tutus", "tofus", "sudokus"})
# "-eed" after a syllable is "-ee" + "d" ("agreed"), except in these words (Porter2's list).
_EED_WORDS = frozenset({"proceed", "exceed", "succeed"})


def strip_possessive(word: str) -> str:
    """``word`` without a possessive ending: "document's" and "users'" give "document" and
    "users"; contractions with another ending ("don't") are left as they are."""
    return _POSSESSIVE.sub("", word)


def _is_short(base: str) -> bool:
    return _SHORT.fullmatch(base) is not None


def _latin_us(word: str) -> bool:
    """Whether ``word`` is a singular in "-us" after a syllable ("status", "focus", "various")."""
    return word.endswith("us") and _VOWEL.search(word[:-2]) is not None and word not in _U_PLURALS


def _unsuffixed(word: str) -> str:
    """``word`` without "-ed"/"-ing" (and their "-ly"), repaired as Porter does, or as it is."""
    for suffix in _INFLECTIONS:
        if not word.endswith(suffix):
            continue
        base = word[: -len(suffix)]
        if suffix.startswith("e") and base.endswith("e"):
            # "agreed" is "agree" + "d"; "speed", "need", "proceed" are words, not "spe" + "ed"
            if word in _EED_WORDS or not _SYLLABLE.search(base[:-1]):
                return word
            return base + "e"
        if len(base) > 3 and base.endswith(_DOUBLED):
            return base[:-1]
        if base.endswith("u") and len(base) > 1 and not _SYLLABLE.search(base):
            return base + "e"  # "queued", "glued", "sued": the "e" of "queue", "glue", "sue"
        if (len(base) > 2 and _VOWEL.search(base)) or (len(base) == 2 and _is_short(base)):
            return base + "e" if _is_short(base) else base
        return word
    return word


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The stem of a lower-cased word (:func:`bot.knowledge.terms.words`): "installing",
    "installed", "installs" give "install"; "approve", "approves", "approved", "approving"
    give "approv"; "use", "uses", "used", "using" give "use"; "document's" gives "document".
    """
    word = strip_possessive(word)
    if word in _INVARIANT:
        return word
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if len(word) > 5 and word.endswith(("ies", "ied")):
        return word[:-3] + "y"  # "applies", "applied": "apply"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss") and not _latin_us(word):
        word = word[:-1]  # "boxes" is "boxe" here, and "box" below
        if word in _INVARIANT:
            return word  # "embeds"
    return _verb_of_noun(_without_e(_unsuffixed(word)))


def _without_e(word: str) -> str:
    """``word`` without a final "e" that its other forms lack ("approve": "approv")."""
    if len(word) > 2 and word.endswith("e"):
        base = word[:-1]
        if _SYLLABLE.search(base) and not _is_short(base):
            return base
    return word


def _measure(word: str) -> int:
    """Porter's measure of ``word``: how many times a vowel is followed by a consonant ("y"
    after a consonant is a vowel): "cre" 0, "stat" 1, "delet" and "deploy" 2."""
    count, vowel_before = 0, False
    for i, letter in enumerate(word):
        vowel = letter in "aeiou" or (letter == "y" and i > 0 and not vowel_before)
        count += vowel_before and not vowel
        vowel_before = vowel
    return count


def _verb_of_noun(word: str) -> str:
    """The stem of the verb a noun (or an "-ate" verb) is made from, as Porter cuts it:
    "configuration" "configur", "deletion" "delet", "approval" "approv", "management" "manag",
    "validate" "valid"; any other stem as it is."""
    if word in _OWN_NOUNS or not word.isascii():
        return word
    if len(word) > 7 and word.endswith("ation"):
        return _without_ate(word[:-3])  # "configurat", "creat"
    if word.endswith(("tion", "sion")) and not word.endswith("ition"):
        return word[:-3] if _measure(word[:-3]) > 1 else word
    if word.endswith(_VERB_AL):
        return word[:-2] if _measure(word[:-2]) > 1 else word
    if word.endswith("ment") and _measure(word[:-4]) > 1:
        return _without_e(word[:-4])  # "manage", "require"
    return _without_ate(word)


def _without_ate(word: str) -> str:
    """An "-ate" stem without its "at" after two syllables ("validat" "valid", "configurat"
    "configur"); after fewer it is the word ("creat", "rotat", "updat", "format")."""
    if word.endswith("at") and _measure(word[:-2]) > 1:
        return word[:-2]
    return word
