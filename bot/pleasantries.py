"""Greetings, thanks, acknowledgements and goodbyes: the words of messages with nothing to answer.

One vocabulary for two readers. The email connector reads a body line by line and asks the
subject when every line is a greeting, a closing or a signature (``email_subject``), and leaves
a reply unanswered that only thanks (``email_policy``). The built-in answerer greets back or
says "You're welcome." to a chat message that is only small talk, without searching
(:mod:`bot.assistant.extractive_small_talk`).

English, plus the languages the greetings and closings of mail are recognised in: German,
French, Spanish, Italian, Dutch, Swedish, Portuguese and Polish. Recognition is deliberately
conservative (:func:`small_talk`): a question mark (of any script, :data:`QUESTION_MARKS`), a
long message or any phrase outside these lists ("hi, how do I install it", "thanks, and
Windows") makes a message a question.
"""

from __future__ import annotations

import re
from typing import Literal

__all__ = [
    "CLOSING",
    "GREETING",
    "QUESTION_MARKS",
    "QUESTION_WORDS",
    "SmallTalk",
    "has_question_mark",
    "small_talk",
]

QUESTION_MARKS = frozenset(
    "?\u00bf\u037e\u055e\u061f\u1367\u1945\u203d\u2047\u2048\u2049\u2753\u2754\u2cfa"
    "\u2cfb\u2e18\u2e2e\u2e54\ua60f\ua6f7\ufe16\ufe56\uff1f\U00011143\U0001e95f"
)
"""Every question mark of Unicode (its punctuation named QUESTION MARK, the interrobangs ‽ ⸘,
the marks ❓ ❔): "ok‽", "thanks⁈", "ok؟" (Arabic), "¿ok" and "好？" ask as "ok?" does."""

GREETING = re.compile(
    r"^(?:hi|hello|hey|hiya|dear|greetings|good (?:morning|afternoon|evening|day)|hallo|moin|"
    r"servus|guten (?:morgen|tag|abend)|liebe[rs]?|sehr geehrte[rs]?|bonjour|bonsoir|salut|hola|"
    r"buenos días|buenas(?: tardes| noches)?|estimad[oa]s?|ciao|buongiorno|salve|gentile|hej|"
    r"hoi|goedemorgen|goedemiddag|beste|olá|bom dia|boa tarde|witam|dzień dobry)\b(?P<rest>.*)$",
    re.IGNORECASE,
)
"""A greeting word at the start of a line; ``rest`` is what follows it (whom it greets)."""

QUESTION_WORDS = frozenset(
    {
        "how", "what", "why", "where", "when", "which", "who", "can", "could", "is", "are",
        "does", "do", "should", "would", "will", "i", "we", "my", "our", "please", "quick",
        "wie", "was", "warum", "wo", "wann", "ich", "comment", "pourquoi", "je", "cómo", "qué",
        "come", "perché", "hoe", "wat",
    }
)  # fmt: skip
"""Words that start a question, not an addressee: "Hi, how do I …" is content."""

_THANKS_WORDS = (
    r"thanks|thank you|thx|ty|danke(?: schön| sehr)?|vielen dank|merci(?: beaucoup)?|"
    r"(?:muchas )?gracias|grazie(?: mille)?|bedankt|alvast bedankt|dank je(?: wel)?|tack|"
    r"obrigad[oa]|dziękuję|dzięki"
)
# what follows a thank-you ("… so much", "… for the quick answer", "… im Voraus")
_THANKS_TAIL = (
    r"(?:\s+(?:a lot|so much|very much|in advance|again|for your time|"
    r"for (?:your|the|this|that|all (?:the|your)|any) (?:quick |fast |prompt |great |detailed |"
    r"kind |clear )?(?:help|answer|reply|response|info|information|explanation|support|"
    r"assistance)|and (?:best |kind )?regards|im voraus|d'avance|de antemano))*"
)
_CLOSING_WORDS = (
    r"(?:many |kind |best |warm |warmest |big )?(?:thanks|thank you|thx|ty|regards|wishes)|"
    r"best|cheers|sincerely|yours(?: sincerely| truly| faithfully)?|br|kr|rgds|brgds|"
    r"(?:mit )?(?:freundlichen|freundliche|viele|beste|liebe|herzliche) grüßen?|grüße|gruß|vg|lg|"
    r"mfg|danke(?: schön| sehr)?|vielen dank|(?:bien )?cordialement|merci(?: beaucoup)?|"
    r"bien à vous|salutations|bonne journée|(?:un )?saludos?(?: cordiales)?|(?:muchas )?gracias|"
    r"atentamente|grazie(?: mille)?|(?:cordiali |distinti )?saluti|"
    r"(?:met )?(?:vriendelijke |beste |hartelijke )?groet(?:en|jes)?|"
    r"bedankt|alvast bedankt|dank je(?: wel)?|med vänlig hälsning|hälsningar|"
    r"mvh|vh|tack|obrigad[oa]|atenciosamente|abraços|cumprimentos|pozdrawiam|dziękuję|dzięki"
)
CLOSING = re.compile(
    rf"^(?:{_CLOSING_WORDS}){_THANKS_TAIL}[\s,.!]*(?:,\s*(?P<name>.+))?$",
    re.IGNORECASE,
)
"""A closing line ("Thanks", "Best regards", "Mit freundlichen Grüßen", …), with the name that
may follow it on the same line ("Thanks, Anna") as ``name``."""

_THANKS = re.compile(
    rf"^(?:(?:many|big|thanks|so|thank you)\s+)?(?:{_THANKS_WORDS}){_THANKS_TAIL}$|"
    r"^(?:much |greatly |really )?appreciated$|^(?:i |really )*appreciate (?:it|that|your help)$|"
    r"^cheers$",  # in chat, "Cheers!" thanks more often than it signs off
    re.IGNORECASE,
)
_ACKNOWLEDGEMENT = re.compile(
    r"^(?:(?:ok(?:ay)?|okey|kk|alright|all right|got it|gotcha|understood|i see|noted|cool|"
    r"great|perfect|nice|awesome|excellent|brilliant|wonderful|fantastic|super|good|very good|"
    r"lovely|(?:that |this |it )?makes sense|sounds good|will do|works(?: now)?|"
    r"(?:that|this|it) (?:helped|helps|works|worked|did it|did the trick|is helpful|"
    r"was helpful|answers it|answered it)(?: a lot)?|"
    r"(?:that's|that is|this is|it's|it is) (?:great|perfect|helpful|very helpful|"
    r"what i needed|exactly what i needed|clear|good)|"
    # German, French, Spanish, Italian, Dutch, Swedish, Portuguese, Polish
    r"alles klar|verstanden|prima|perfekt|passt|klar|sehr gut|top|d'accord|parfait|compris|"
    r"très bien|génial|entendu|ça marche|vale|perfecto|entendido|genial|muy bien|de acuerdo|"
    r"va bene|perfetto|capito|ottimo|d'accordo|oké|duidelijk|begrepen|helder|okej|uppfattat|"
    r"toppen|perfeito|entendi|ótimo|combinado|jasne|rozumiem|dobrze|świetnie|w porządku|"
    r"das (?:passt|hilft|hat geholfen)|c'est (?:parfait|super|génial|clair|noté)|"
    r"(?:eso|esto) (?:funciona|ayuda)|está bien|funziona|dat werkt|det fungerar|funcionou|"
    r"to działa)"
    r"(?:\s+(?:then|now))?)"
    # "ok thanks", "great thank you so much": a thank-you after it makes the clause thank
    rf"(?:\s+(?P<thanks>{_THANKS_WORDS}){_THANKS_TAIL})?$",
    re.IGNORECASE,
)
_GOODBYE = re.compile(
    r"^(?:bye(?: bye)?|goodbye|good bye|see you(?: later| soon| around)?|see ya|cya|take care|"
    r"have a (?:nice|good|great) (?:day|one|evening|weekend)|good night|"
    r"tschüss?|auf wiedersehen|bis bald|bis dann|schönen tag(?: noch)?|au revoir|à bientôt|"
    r"bonne soirée|adiós|adios|hasta luego|hasta pronto|arrivederci|a presto|buona giornata|"
    r"tot ziens|doei|fijne dag|hej då|vi ses|adeus|tchau|até logo|até mais|do widzenia|"
    r"na razie)$",
    re.IGNORECASE,
)
# whom a chat greeting may name: "hi there", "hello team", "good morning everyone"
_ADDRESSEES = frozenset(
    {
        "there", "all", "everyone", "everybody", "team", "folks", "guys", "bot", "citecast",
        "again", "you", "friend", "people", "support", "zusammen", "allerseits", "tout",
        "le", "monde", "todos", "a", "tutti", "allemaal", "alla", "wszystkim",
    }
)  # fmt: skip
_MAX_CHARS = 120
"""A longer message is never small talk (and a pasted megabyte costs no regex time)."""
_CLAUSES = re.compile(r"[,.;!\n]+|\s+[-–—]+\s+")
# An emoji as Slack and Discourse deliver it, ":+1:", ":pray:", ":+1::skin-tone-2:": a run of
# shortcodes standing alone counts as the emoji it names, which the clause edges drop anyway
# ("thanks 👍"). Only whole words: "note:a:b" and ":)" are no shortcodes.
_SHORTCODES = re.compile(r"(?<![\w:])(?::[a-z0-9_+\-]+:)+(?![\w:])")
_EDGES = re.compile(r"^[\W_]+|[\W_]+$")
_NAME_WORDS = 3

SmallTalk = Literal["greeting", "thanks", "acknowledgement", "goodbye"]
"""What a small-talk message does; a message that thanks and greets thanks."""

_PRIORITY: tuple[SmallTalk, ...] = ("thanks", "goodbye", "acknowledgement", "greeting")


def small_talk(text: str) -> SmallTalk | None:
    """What ``text`` does when it is only small talk ("hello", "thanks!", "Great, thank you!",
    "ok", "bye", "thanks :pray:"), else None: a question mark, more than 120 characters or any
    clause that is no greeting, thanks, acknowledgement, goodbye or closing makes it a question.
    A short name of capitalised words after a thanks or a closing is a signature
    ("Thanks, Anna")."""
    if len(text) > _MAX_CHARS or has_question_mark(text):
        return None
    found: set[SmallTalk] = set()
    for raw in _CLAUSES.split(_SHORTCODES.sub(" ", text)):
        clause = _EDGES.sub("", " ".join(raw.replace("\u2019", "'").split()))
        if not clause:
            continue
        kind = _clause_kind(clause)
        if kind is None and found - {"greeting"} and _is_name(clause):
            continue
        if kind is None:
            return None
        found.add(kind)
    return next((kind for kind in _PRIORITY if kind in found), None)


def has_question_mark(text: str) -> bool:
    """Whether ``text`` holds any of :data:`QUESTION_MARKS`."""
    return not QUESTION_MARKS.isdisjoint(text)


def _clause_kind(clause: str) -> SmallTalk | None:
    if _THANKS.match(clause):
        return "thanks"
    acknowledged = _ACKNOWLEDGEMENT.match(clause)
    if acknowledged:
        return "thanks" if acknowledged.group("thanks") else "acknowledgement"
    if _GOODBYE.match(clause):
        return "goodbye"
    closing = CLOSING.match(clause)
    if closing and not closing.group("name"):
        return "goodbye"  # a sign-off without a thank-you: "Best regards", "Cheers"
    greeting = GREETING.match(clause)
    if greeting and all(w.lower() in _ADDRESSEES for w in greeting.group("rest").split()):
        return "greeting"
    return None


def _is_name(clause: str) -> bool:
    words = clause.split()
    return len(words) <= _NAME_WORDS and all(w[:1].isupper() and w.isalpha() for w in words)
