"""Signature blocks and legal disclaimers below a mail's text: never part of the question.

Only a signature after the "-- " delimiter is marked as one; most people's clients write the
name, title, company, phone number and a legal disclaimer straight below the closing. Their
words named records ("Enterprise Applications" in a job title, "error-free" in a disclaimer)
and the question was answered with those instead. :func:`without_sign_off` cuts them:

- everything below a closing line ("Regards,", "Best,", "Kind regards", "Thanks, Anna",
  "Mit freundlichen Grüßen", "Cordialement", … :data:`bot.pleasantries.CLOSING`) when all of it is
  signature lines (:func:`is_signature_line`: a name, a title, a company, an address, a link;
  :func:`is_contact_line`: a phone number with its label) or disclaimer paragraphs. The closing
  line itself stays: the greeting and thanks rules (``email_subject``) read it; so does a lone
  name below it ("Thanks,\nAnn"), which names no record;
- a disclaimer paragraph (:func:`is_disclaimer`) at the end, with or without a closing above it.

Any other line below the closing ("Thanks,\\nAnn\\n\\nP.S. how do I reset it?", a lower-case
sentence, a line with a question mark or one starting with a question word) keeps everything.
"""

from __future__ import annotations

import re

from bot.pleasantries import CLOSING, QUESTION_WORDS, has_question_mark

__all__ = ["is_contact_line", "is_disclaimer", "is_signature_line", "without_sign_off"]

_SIGNATURE_WORDS = 8
_SIGNATURE_CHARS = 80
_SIGNATURE_LINES = 12
"""More lines than this below a closing are not a signature (a list the author wrote)."""
_NAME_WORDS = 3
# the lower-case words of titles, departments, companies and names
_TITLE_JOINERS = frozenset(
    {
        "of", "and", "for", "the", "at", "&", "der", "die", "das", "des", "für", "und", "bei",
        "vom", "von", "zu", "de", "du", "la", "le", "et", "chez", "y", "del", "e", "di",
        "della", "van", "voor", "en", "och", "för", "da", "do", "dos", "i", "ten", "ter",
    }
)  # fmt: skip
# a line of capitalised words after them asks for something ("Send the Guide for Windows")
_REQUESTS = frozenset(
    {
        "send", "install", "help", "need", "want", "get", "find", "show", "tell", "explain",
        "add", "remove", "delete", "update", "reset", "change", "fix", "enable", "disable",
        "configure", "set", "connect", "export", "import", "use", "make", "create", "give",
        "let", "check", "bitte", "merci", "por", "per", "svp", "pls",
    }
)  # fmt: skip
# a phone or fax number: seven digits or more, with the spaces, dots and dashes people write
_PHONE = re.compile(r"\+?\(?\d[\d\s().\-/]{5,}\d")
_CONTACT_LABEL_WORDS = 3
"""Words besides the number on a contact line ("24/7 hotline:", "Mobile (office):")."""

# what legal disclaimers say about the mail they are attached to
_DISCLAIMER_MARKERS = re.compile(
    r"confidential|privileged|intended (?:solely |only )?(?:for )?(?:the )?(?:recipient|"
    r"addressee)|intended (?:solely|only)|addressee|error[- ]free|virus|notify the sender|"
    r"notify us|delete (?:this|it|the)|unauthori[sz]ed|(?:strictly )?prohibited|liabilit|"
    r"legally binding|disclaimer|vertraulich|empfänger|confidentiel|destinataire|"
    r"confidencial|destinatario|riservat",
    re.IGNORECASE,
)
_DISCLAIMER_OPENER = re.compile(
    r"^\W*(?:disclaimer|confidential(?:ity)?(?: notice| note)?|legal notice|privileged|"
    r"(?:important )?notice|this (?:e-?mail|message|communication|transmission)|"
    r"the (?:information|contents?) (?:contained )?in this|diese (?:e-?mail|nachricht)|"
    r"ce (?:message|courriel|e-?mail)|este (?:mensaje|correo)|questo messaggio|"
    r"deze (?:e-?mail|mail|bericht))\b",
    re.IGNORECASE,
)
_PRINT_NOTE = re.compile(
    r"^\W*please (?:consider|think of) the environment before printing\b.{0,40}$", re.IGNORECASE
)
_OPENER_MARKERS = 1
_BARE_MARKERS = 3
"""Distinct markers a paragraph needs: with a disclaimer's opening words, or without them."""
_DISCLAIMER_CHARS = 60
_DISCLAIMER_MAX_CHARS = 4000
"""Longer paragraphs are the author's (the longest disclaimers run to about 2,000 characters)."""
# the author speaking: a disclaimer speaks of "this e-mail" and "the sender", never "I" or "my"
_FIRST_PERSON = re.compile(r"\b(?:I|my|me|I'm|I've|ich|mein|je|mon|ma)\b")


def without_sign_off(text: str) -> str:
    """``text`` (a body's new part) without the signature block below its closing and without
    disclaimer paragraphs at its end (see the module docstring); blank lines at the end go."""
    lines = text.split("\n")
    end = _end_without_disclaimers(lines)
    closing = _first_closing_of_signature(lines[:end])
    if closing is not None and not _only_a_name(lines[closing + 1 : end]):
        end = closing + 1
    return "\n".join(lines[:end]).rstrip()


def _only_a_name(lines: list[str]) -> bool:
    """True when ``lines`` (below a closing) are one short line of words, a name ("Ann",
    "Ann Example"): it names no record and is left as written ("Thanks,\nAnn")."""
    filled = [line.split() for line in lines if line.strip()]
    if len(filled) != 1 or len(filled[0]) > _NAME_WORDS:
        return False
    return all(word.replace("-", "").replace(".", "").isalpha() for word in filled[0])


def is_disclaimer(paragraph: str) -> bool:
    """True when ``paragraph`` (its lines joined) reads as a legal disclaimer: it starts like one
    ("DISCLAIMER:", "This e-mail …", "CONFIDENTIALITY NOTICE") and names what disclaimers name
    (confidential, intended recipient, virus, error-free, …), or names three such things, with
    no question mark and without the author speaking ("I", "my")."""
    if len(paragraph) > _DISCLAIMER_MAX_CHARS:
        return False
    flat = " ".join(paragraph.split())
    if _PRINT_NOTE.match(flat):
        return True
    if len(flat) < _DISCLAIMER_CHARS or has_question_mark(flat) or _FIRST_PERSON.search(flat):
        return False
    markers = {found.group(0).lower() for found in _DISCLAIMER_MARKERS.finditer(flat)}
    need = _OPENER_MARKERS if _DISCLAIMER_OPENER.match(flat) else _BARE_MARKERS
    return len(markers) >= need


def is_signature_line(line: str) -> bool:
    """A short line of capitalised words, an address, a link or a number: a name, a title,
    a company or contact details below a closing (never a sentence in lower case).

    A title's small connecting words may be in lower case between capitalised ones ("Head of
    Sales", "Leiter der Entwicklung", "Jefe de Ventas y Marketing", "Anna van Dijk"), unless
    the line starts with a question word or a request ("Send the Guide for Windows")."""
    words = line.split()
    if not words or len(words) > _SIGNATURE_WORDS or len(line) > _SIGNATURE_CHARS:
        return False
    # as written: "The" and "Von" are capitalised words already
    joiners = [word for word in words if word in _TITLE_JOINERS]
    if not joiners:
        return all(_signature_word(word) for word in words)
    first = words[0].strip(",.:;").lower()
    if words[0] in _TITLE_JOINERS or first in QUESTION_WORDS or first in _REQUESTS:
        return False
    if words[-1].rstrip(",.") in _TITLE_JOINERS or 2 * len(joiners) >= len(words):
        return False  # "Anna of", "Head of the": cut off, or more glue than title
    return all(_signature_word(word) for word in words if word not in _TITLE_JOINERS)


def is_contact_line(line: str) -> bool:
    """A phone or fax number with at most a short label ("24/7 hotline: +1 555 0100",
    "Tel. +49 30 1234567", "mobile: 0171 2345678")."""
    if len(line) > _SIGNATURE_CHARS or has_question_mark(line):
        return False
    found = _PHONE.search(line)
    if found is None or sum(ch.isdigit() for ch in found.group(0)) < 7:
        return False
    label = (line[: found.start()] + " " + line[found.end() :]).split()
    return len(label) <= _CONTACT_LABEL_WORDS


def _signature_word(word: str) -> bool:
    letters = [ch for ch in word if ch.isalpha()]
    if not letters or "@" in word or word.lower().startswith(("http", "www.")):
        return True
    return letters[0].isupper()


def _is_closing(line: str) -> bool:
    flat = " ".join(line.split())
    if not flat or has_question_mark(flat):
        return False
    found = CLOSING.match(flat)
    return found is not None and (not found.group("name") or is_signature_line(found.group("name")))


def _first_closing_of_signature(lines: list[str]) -> int | None:
    """The index of the earliest closing line below which every line is a closing, a signature
    or contact line (at most ``_SIGNATURE_LINES``, none asking) or a disclaimer paragraph.

    Read from the end, so a long body costs one pass."""
    found: int | None = None
    signature_lines = 0
    paragraphs = _paragraphs(lines)
    for start, stop in reversed(paragraphs[-2 * _SIGNATURE_LINES :]):
        if is_disclaimer("\n".join(lines[start:stop])):
            continue
        for index in range(stop - 1, start - 1, -1):
            flat = " ".join(lines[index].split())
            if _is_closing(flat):
                found = index
                continue
            signature_lines += 1
            if signature_lines > _SIGNATURE_LINES or has_question_mark(flat) or _asks(flat):
                return found
            if not (is_signature_line(flat) or is_contact_line(flat)):
                return found
    return found


def _asks(line: str) -> bool:
    """A capitalised line that still asks ("What Is The Enterprise Plan", "Send The Guide"):
    three words or more starting with a question word or a request (a name such as "Will
    Smith" or "Can Yilmaz" has two)."""
    words = line.split()
    first = words[0].strip(",.:;").lower() if words else ""
    return len(words) >= 3 and (first in QUESTION_WORDS or first in _REQUESTS)


def _end_without_disclaimers(lines: list[str]) -> int:
    """The number of leading ``lines`` left once disclaimer paragraphs at the end are gone."""
    end = len(lines)
    while True:
        while end and not lines[end - 1].strip():
            end -= 1
        start = end
        while start and lines[start - 1].strip():
            start -= 1
        if start == end or not is_disclaimer("\n".join(lines[start:end])):
            return end
        end = start


def _paragraphs(lines: list[str]) -> list[tuple[int, int]]:
    """The ``(start, stop)`` line ranges of the runs of non-blank ``lines``."""
    ranges: list[tuple[int, int]] = []
    start: int | None = None
    for index, line in enumerate(lines):
        if line.strip() and start is None:
            start = index
        elif not line.strip() and start is not None:
            ranges.append((start, index))
            start = None
    if start is not None:
        ranges.append((start, len(lines)))
    return ranges
