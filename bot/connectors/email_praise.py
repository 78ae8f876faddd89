"""Short praise in a reply ("Great work.", "You're the best!", "Works now, brilliant"): small talk.

A reply that only thanks is not answered (``email_subject.only_thanks``); the shared vocabulary
(:func:`bot.pleasantries.small_talk`) knows thanks and acknowledgements ("great", "perfect",
"that works"), but not praise of the answer or its author, so "Thank you so much!! Great
work." was asked as a question and answered "I could not find anything about that in the
knowledge base.". This module adds praise, for mail only: a line counts as small talk when every
clause of it is small talk or praise (:func:`line_kind`).

Like the shared rules it is deliberately narrow: praise is a whole clause from the list below
(with "really", "so", "very" and the like before it), a question mark anywhere in the line or
any other clause ("Great work, but the installer still fails") keeps the line content.
"""

from __future__ import annotations

import re

from bot.pleasantries import SmallTalk, has_question_mark, small_talk

_MAX_CHARS = 120
"""As :mod:`bot.pleasantries`: a longer line is content (and costs no regex time)."""
# the separators small_talk splits a message at (sentences, commas, dashes)
_CLAUSES = re.compile(r"[,.;!\n]+|\s+[-–—]+\s+")
_EDGES = re.compile(r"^[\W_]+|[\W_]+$")
_NAME_WORDS = 3
# as small_talk: a line that thanks and praises thanks
_PRIORITY: tuple[SmallTalk, ...] = ("thanks", "goodbye", "acknowledgement", "greeting")

_VERY = r"(?:(?:really|so|very|truly|such|absolutely|just|simply|pretty|super)\s+)*"
_GOOD = (
    r"(?:great|good|nice|excellent|awesome|amazing|fantastic|brilliant|wonderful|superb|"
    r"outstanding|terrific|fab|fabulous|incredible|stellar|solid|lovely|perfect|helpful|useful)"
)
_WORK = r"(?:work|job|answer|reply|response|help|stuff|explanation|support|service|one)"
PRAISE = re.compile(
    r"^(?:"
    # "great work", "really nice job", "such a great answer", "excellent support as always"
    rf"{_VERY}(?:a\s+|an\s+)?{_VERY}{_GOOD}\s+{_WORK}(?:\s+as\s+(?:always|usual))?|"
    r"well done|kudos|bravo|hats off|nailed it|spot on|as (?:always|usual|ever)|"
    # "you're the best", "you rock", "you are a star", "you saved my day"
    r"you(?:'re| are)\s+(?:the best|a (?:star|legend|lifesaver|life saver|genius|hero)|"
    r"awesome|amazing|great|brilliant|wonderful|fantastic|the man|the greatest)|"
    r"you rock|you guys rock|you saved (?:my|the) (?:day|life|bacon|weekend)|"
    r"(?:a )?(?:lifesaver|life saver)|"
    # "that's great", "this is really helpful", "that was super helpful", "that's amazing"
    rf"(?:that|this|it)(?:'s| is| was)\s+{_VERY}(?:{_GOOD}|exactly it|just what i needed|"
    r"exactly what i (?:needed|was looking for)|what i was looking for)|"
    # "works now", "it works now", "all working now", "that fixed it", "problem solved"
    r"(?:(?:it|that|this|all|everything)(?:'s|\s+is)?\s+)?(?:works|working|worked)"
    r"(?:\s+(?:now|again|perfectly|fine|great|like a charm))*|"
    r"(?:that|this) (?:fixed|solved) it|(?:problem |issue )?(?:solved|fixed|sorted)|"
    rf"{_VERY}(?:amazing|awesome|perfect|brilliant|excellent|fantastic|wonderful|great|"
    r"superb|outstanding|terrific|incredible)"
    r")$",
    re.IGNORECASE,
)
"""A clause of praise (lower or upper case, edges' punctuation and emoji stripped)."""


def is_praise(clause: str) -> bool:
    """Whether one clause (no sentence punctuation inside) is short praise."""
    return PRAISE.match(" ".join(clause.replace("\u2019", "'").split())) is not None


def line_kind(line: str) -> SmallTalk | None:
    """What a body line does when it is only small talk (:func:`bot.pleasantries.small_talk`)
    or praise mixed with it ("Thank you so much!! Great work.": thanks; "Great work.": an
    acknowledgement), else None (content: a question mark, any other clause)."""
    kind = small_talk(line)
    if kind is not None or len(line) > _MAX_CHARS or has_question_mark(line):
        return kind
    found: set[SmallTalk] = set()
    for raw in _CLAUSES.split(line):
        clause = _EDGES.sub("", " ".join(raw.replace("\u2019", "'").split()))
        if not clause:
            continue
        if is_praise(clause):
            found.add("acknowledgement")
            continue
        said = small_talk(clause)
        if said is None and found - {"greeting"} and _is_name(clause):
            continue  # "Great work, Anna"
        if said is None:
            return None
        found.add(said)
    return next((kind for kind in _PRIORITY if kind in found), None)


def _is_name(clause: str) -> bool:
    words = clause.split()
    return len(words) <= _NAME_WORDS and all(w[:1].isupper() and w.isalpha() for w in words)
