"""A question asked in the Subject line: the body holds only a greeting and a sign-off.

People often write the question as the subject and only "Hi,\\n\\nThanks,\\nAnna" (or "Hello
team", or "see subject") in the body. That body has nothing to answer; the subject has. A body
counts as empty of content when every line left after the quote rules (``email_text``) is a
greeting, a closing ("Thanks", "Best regards", "Mit freundlichen Grüßen", …, also "Thanks, Anna"),
a pointer at the subject ("see subject", "siehe Betreff"), the sender's own name, or a short line
of capitalised words (a name, a title, a company), an address or a number below a closing.

The rules are deliberately narrow: a body line that fits none of them, or any line with a
question mark, keeps the body as the question, as before.
"""

from __future__ import annotations

import re

from bot.connectors.email_text import history_start

_PREFIX = re.compile(
    r"^\s*(?:(?:re|aw|sv|antw|r|vs|odp|fwd?|wg|tr|rv|enc|doorst|vb)"
    r"(?:\[\d+\]|\(\d+\))?\s*:\s*)+",
    re.IGNORECASE,
)
_GREETING = re.compile(
    r"^(?:hi|hello|hey|hiya|dear|greetings|good (?:morning|afternoon|evening|day)|hallo|moin|"
    r"servus|guten (?:morgen|tag|abend)|liebe[rs]?|sehr geehrte[rs]?|bonjour|bonsoir|salut|hola|"
    r"buenos días|buenas(?: tardes| noches)?|estimad[oa]s?|ciao|buongiorno|salve|gentile|hej|"
    r"hoi|goedemorgen|goedemiddag|beste|olá|bom dia|boa tarde|witam|dzień dobry)\b(?P<rest>.*)$",
    re.IGNORECASE,
)
_ADDRESSEE_WORDS = 4
"""Words after a greeting word that name who is greeted ("Dear support team", "Hello all")."""
# words that start a question, not an addressee: "Hi, how do I …" is content
_QUESTION_WORDS = frozenset(
    {
        "how", "what", "why", "where", "when", "which", "who", "can", "could", "is", "are",
        "does", "do", "should", "would", "will", "i", "we", "my", "our", "please", "quick",
        "wie", "was", "warum", "wo", "wann", "ich", "comment", "pourquoi", "je", "cómo", "qué",
        "come", "perché", "hoe", "wat",
    }
)  # fmt: skip
_CLOSING = re.compile(
    r"^(?:(?:many |kind |best |warm |warmest |big )?(?:thanks|thank you|thx|ty|regards|wishes)|"
    r"best|cheers|sincerely|yours(?: sincerely| truly| faithfully)?|br|kr|rgds|brgds|"
    r"(?:mit )?(?:freundlichen|freundliche|viele|beste|liebe|herzliche) grüßen?|grüße|gruß|vg|lg|"
    r"mfg|danke(?: schön| sehr)?|vielen dank|(?:bien )?cordialement|merci(?: beaucoup)?|"
    r"bien à vous|salutations|bonne journée|(?:un )?saludos?(?: cordiales)?|(?:muchas )?gracias|"
    r"atentamente|grazie(?: mille)?|(?:cordiali |distinti )?saluti|"
    r"(?:met )?(?:vriendelijke |beste |hartelijke )?groet(?:en|jes)?|"
    r"bedankt|alvast bedankt|dank je(?: wel)?|med vänlig hälsning|hälsningar|"
    r"mvh|vh|tack|obrigad[oa]|atenciosamente|abraços|cumprimentos|pozdrawiam|dziękuję|dzięki)"
    r"(?:\s+(?:a lot|so much|very much|in advance|again|for your time|"
    r"for (?:your|the|any) help|and (?:best |kind )?regards|im voraus|d'avance|de antemano))*"
    r"[\s,.!]*(?:,\s*(?P<name>.+))?$",
    re.IGNORECASE,
)
_SEE_SUBJECT = re.compile(
    r"^(?:please |pls )?(?:see|as per|as in|question in|refer to|siehe|s\.|voir|ver|vedi|zie|se)"
    r" (?:the |l'|el |l')?(?:subject(?: line)?|betreff|objet|sujet|asunto|oggetto|onderwerp|ämne)"
    r"[\s.!:)]*$|^(?:a |one )?(?:quick |short |small )?question[\s.:!]*$",
    re.IGNORECASE,
)
# what email_html skips as quoted history: a blockquote or a client's quote container
_HTML_HISTORY = re.compile(
    r"<blockquote\b|gmail_quote|yahoo_quoted|moz-cite-prefix|apple-mail-quote|protonmail_quote|"
    r"divRplyFwdMsg|appendonsend|mail-editor-reference-message-container",
    re.IGNORECASE,
)
_SIGNATURE_WORDS = 8
_PLEASANTRY_CHARS = 120
"""Longer lines are content (and a hostile megabyte line costs no regex time)."""
_SIGNATURE_CHARS = 80


def subject_question(subject: str) -> str:
    """The subject without its reply and forward prefixes ("Re:", "Fwd:", "AW:", "SV:", …)."""
    return _PREFIX.sub("", subject).strip()


def asks_subject(question: str, name: str, text: str | None, html: str | None) -> bool:
    """Whether a fresh mail (no reply headers) asks its subject: its new part ``question`` is
    empty, or holds only pleasantries (:func:`only_pleasantries`, ``name`` the sender's) and the
    body (``text``, else ``html``) quotes no earlier mail: a "Thanks!" above a quote thanks for
    an answer, and the subject is the thread's, asked already."""
    if not question:
        return True
    return only_pleasantries(question, name) and not quotes_history(text, html)


def only_pleasantries(text: str, sender_name: str = "") -> bool:
    """True when ``text`` (a body's new part) holds nothing to answer: only greetings,
    closings, pointers at the subject and signature lines (see the module docstring)."""
    name = " ".join(sender_name.split()).lower()
    signed = False
    for raw in text.splitlines():
        line = " ".join(raw.split())
        if not line:
            continue
        if len(line) > _PLEASANTRY_CHARS or "?" in line or "\uff1f" in line:
            return False
        if _is_name(line, name) or _SEE_SUBJECT.match(line):
            continue
        # a closing first: "Liebe Grüße" and "Beste groeten" sign off, "Liebe Anna" greets
        closing = _CLOSING.match(line)
        if closing:
            if closing.group("name") and not _is_signature_line(closing.group("name")):
                return False
            signed = True
            continue
        if not signed and _is_greeting(line):
            continue
        if signed and _is_signature_line(line):
            continue
        return False
    return True


def quotes_history(text: str | None, html: str | None) -> bool:
    """True when the body the question came from (``text`` if it has any, else ``html``)
    quotes an earlier mail: its sender is replying, and "Thanks!" above the quote thanks
    for an answer rather than pointing at the subject."""
    if text is not None and text.strip():
        lines = text.splitlines()
        return any(line.lstrip().startswith(">") for line in lines) or (
            history_start(text) is not None
        )
    return html is not None and _HTML_HISTORY.search(html) is not None


def _is_greeting(line: str) -> bool:
    found = _GREETING.match(line)
    if found is None:
        return False
    words = re.sub(r"[,.!:;]", " ", found.group("rest")).split()
    if len(words) > _ADDRESSEE_WORDS:
        return False
    return not any(word.lower() in _QUESTION_WORDS for word in words)


def _is_name(line: str, name: str) -> bool:
    """The sender's name or first name, alone on a line (also after a dash: "- Anna")."""
    bare = line.lstrip("-–—~ ").rstrip(" .").lower()
    return bool(name) and bool(bare) and bare in (name, name.split()[0])


def _is_signature_line(line: str) -> bool:
    """A short line of capitalised words, an address, a link or a number: a name, a title,
    a company or contact details below a closing (never a sentence in lower case)."""
    words = line.split()
    if not words or len(words) > _SIGNATURE_WORDS or len(line) > _SIGNATURE_CHARS:
        return False
    return all(_signature_word(word) for word in words)


def _signature_word(word: str) -> bool:
    letters = [ch for ch in word if ch.isalpha()]
    if not letters or "@" in word or word.lower().startswith(("http", "www.")):
        return True
    return letters[0].isupper()
