"""Whether a full stop ends a sentence: the one rule the answerer, claims and the reader share.

The built-in answerer (:mod:`bot.assistant.extractive_sentences`), the claim splitter
(:mod:`bot.claims`) and the knowledge reader's chunking and grounding's script ends
(:mod:`bot.knowledge.sentence_ends`) each find candidate ends their own way (what may follow,
closing quotes, markers), but a ``.`` directly before a space is judged here, so an answer's
quoted sentence is the sentence its marker is checked against.

A ``.`` followed by a space is *not* a sentence end when it closes:

- a common abbreviation of English, German, French, Spanish or Polish (``Dr.``, ``ca.``,
  ``z. B.``, ``u. a.``, ``p. ex.``, ``aprox.``, ``np.``, ``e.g.``); one that only introduces a
  number (``No. 5``, ``p. 12``, ``Fig. 3``, ``S. 4``, ``ok. 5``) only before a digit;
- the ordinal of a date (``am 3. Oktober``, ``3. Mai 2026``, ``1. jan.``);
- an upper-case initial (``J. Smith``, ``John F. Kennedy``, ``Dr. J. Weber``): a single capital
  before a capitalised word, that opens its sentence, follows a capitalised word or follows a
  word that introduces a person (``written by J. Smith``, ``sent to A. Jones``, ``von J. Weber``,
  ``par J. Dupont``, ``przez J. Nowak``), unless the next word is one that usually opens a
  sentence (``The``, ``Die``, ``Le``). When such a word itself follows a single capital
  (``lots A and B.``, ``from A to B.``), the capital after it is a label, not an initial.

So "Visitors park in lot B. The garage …" is two sentences ("lot" is lower-case and introduces
no person), and so is "Park in Building C. The garage …" ("The" opens sentences); what the rule
gets wrong: "Park in Building C. Visitors …" is one sentence, so is "got a grade of B. Students
…" (a label after a word that also introduces people), and so is "… etc. The next" (a list
that ends its sentence with "etc.").
"""

from __future__ import annotations

import re

# Full stops of other scripts that end a sentence before a space as ``.!?`` do: the Devanagari
# danda and double danda, the Arabic question mark, the Urdu full stop, the Armenian full stop,
# the Ethiopic full stop and question mark.
SCRIPT_STOPS = "\u0964\u0965\u061f\u06d4\u0589\u1362\u1367"
# Every mark after which a sentence ends before a space (CJK ends need no space: not here).
FULL_STOPS = ".!?" + SCRIPT_STOPS
# the longest abbreviation the rule knows ("approx"; tests hold the word lists to it)
LONGEST_ABBREVIATION = 6


def _listed(text: str) -> tuple[str, ...]:
    """The space-separated words of ``text`` (the lists below read as prose, one line a
    language, rather than as a column of quoted strings)."""
    return tuple(text.split())


# each part of a dotted abbreviation may be followed by one space ("z. B." and "z.B.")
_DOTTED = _listed("e|g i|e z|b u|a d|h o|ä u|ä s|o s|u v|a z|t u|u p|ex p|ej m|in et|al ee|uu")
_WORDS = (
    _listed("mr mrs dr prof etc vs cf approx incl dept esp resp")  # English
    + _listed("ca bzw usw ggf inkl vgl evtl bspw sog zzgl ggü bzgl ff")  # German
    + _listed("mme mlle env av bd")  # French
    + _listed("sra srta dña aprox pág núm avda ud uds")  # Spanish
    + _listed("np ul tzw tj itd itp mgr inż św al pl")  # Polish
)
# titles only as written capitalised: "500 ms." and "2 hr." end sentences, "Ms." and "Hr." do not
_TITLES = _listed("Ms St Mt Jr Sr Rev Hon Gen Capt Sgt Lt Hr Fr Str")
# abbreviations that introduce a number, and months: a stop only before a digit ("No. 5")
_NUMBERED = _listed(
    "no nr nos nº p pp fig art abs vol ch chap sec tel s ok godz max min "
    "jan feb mär mar apr jun jul aug sep sept okt oct nov dez dec"
)
_MONTHS = _listed(
    "januar jänner februar feber märz april mai juni juli august september oktober november "
    "dezember marts mars maj december desember jan feb mär apr jun jul aug sep sept okt nov dez"
)


def _alternatives(words: tuple[str, ...]) -> str:
    # longest first, so "sra" is tried before "sr"
    return "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))


_DOTTED_PATTERN = "|".join(r"\.\s?".join(map(re.escape, parts.split("|"))) for parts in _DOTTED)
_ABBREVIATION = re.compile(
    rf"(?<![\w.])(?:{_DOTTED_PATTERN}|{_alternatives(_WORDS)}"
    rf"|(?-i:{_alternatives(_TITLES)}))\."
    rf"|(?<![\w.])(?:{_alternatives(_NUMBERED)})\.(?=\s?\d)"
    rf"|(?<![\w.])\d{{1,2}}\.(?=\s+(?:{_alternatives(_MONTHS)})(?:\.|\b))",
    re.IGNORECASE,
)
# every word an abbreviation's "." may close (all parts of a dotted one), in lower case
_LAST_WORDS = frozenset(
    word.lower()
    for word in (*_WORDS, *_TITLES, *_NUMBERED, *(p for parts in _DOTTED for p in parts.split("|")))
)
# how far an abbreviation around a stop reaches ("et al." is the longest before it)
_REACH = 12
# a capitalised word after the stop, past an opening quote or bracket
_CAPITALISED_NEXT = re.compile(r"\s+[\"'“‘«(]?([^\W\d_][\w'’-]*)")
_OPENERS = frozenset(
    _listed(
        "The This That These Those There Then It Its If In On At An As We You Your Our They He "
        "She For To When Please Each All Der Die Das Es Sie Wir Ein Eine Im Am Bei Le La Les Il "
        "Elle Un Une Nous Vous El Los Las Una Para"
    )
)
# lower-case words after which a single capital before a name is an initial, not a label:
# "written by J. Smith", "sent to A. Jones", "cc J. Smith" (where "lot B." and "in C." are labels)
_BEFORE_NAMES = frozenset(
    _listed("by to from with of for and cc")  # English
    + _listed("von")  # German
    + _listed("de par")  # French
    + _listed("por")  # Spanish
    + _listed("przez")  # Polish
)


def stop_ends_sentence(text: str, stop: int) -> bool:
    """Whether the mark at ``text[stop]`` ends a sentence, as far as the word it closes tells:
    False only for a ``.`` directly before whitespace that closes an abbreviation, a date's
    ordinal or an initial (see the module rules). What may follow a sentence end (a capital,
    any word) is each caller's own rule."""
    if text[stop] != "." or not text[stop + 1 : stop + 2].isspace():
        return True
    # Every "." the rule keeps inside a sentence closes a word of its lists, an ordinal of two
    # digits at most or a single letter (an initial, a part of "z. B."). Most full stops close
    # another word and end a sentence without the scan, which grounding would otherwise run at
    # every stop of every passage.
    start = stop
    while start > max(0, stop - LONGEST_ABBREVIATION - 1) and text[start - 1].isalnum():
        start -= 1
    word = text[start:stop]
    if word.isdigit():
        return len(word) > 2 or _scanned_verdict(text, stop)
    if len(word) != 1 and word.lower() not in _LAST_WORDS:
        return True
    return _scanned_verdict(text, stop)


def _scanned_verdict(text: str, stop: int) -> bool:
    """:func:`stop_ends_sentence` for a ``.`` before whitespace, by scanning for the
    abbreviations, ordinals and initials it knows (the quick answer aside)."""
    low = max(0, stop - _REACH)
    for match in _ABBREVIATION.finditer(text, low, min(len(text), stop + _REACH)):
        if match.start() <= stop < match.end():
            return False
        if match.start() > stop:
            break
    return not _closes_initial(text, stop)


def _closes_initial(text: str, stop: int) -> bool:
    """Whether the ``.`` at ``stop`` closes an upper-case initial before a name."""
    letter = text[stop - 1] if stop else ""
    if not (letter.isalpha() and letter.isupper()):
        return False
    before = text[stop - 2] if stop >= 2 else ""
    if before and not before.isspace() and before not in "\"'“‘«(":
        return False
    following = _CAPITALISED_NEXT.match(text, stop + 1)
    if following is None or not following.group(1)[0].isupper():
        return False
    if following.group(1) in _OPENERS:
        return False
    # a bounded look back: the words just before the initial decide, and a long text of
    # initials must not be copied and split once per initial
    previous = text[max(0, stop - 81) : stop - 1].rstrip().rstrip("\"'“‘«(")
    if not previous or previous[-1] in FULL_STOPS + ":;":
        return True  # the initial opens its sentence ("J. Smith wrote", "Dr. J. Weber")
    words = previous.split()
    word = words[-1].lstrip("\"'“‘«(")
    if word[:1].isupper():
        return True
    return word in _BEFORE_NAMES and not _between_labels(words[:-1])


def _between_labels(earlier: list[str]) -> bool:
    """Whether the word before the one introducing the capital is itself a single capital, as
    in "lots A and B." or "from A to B.": the capital after it is a label too."""
    label = earlier[-1].strip("\"'“‘«(,") if earlier else ""
    return len(label) == 1 and label.isupper()
