"""A question asked in the Subject line: the body holds only a greeting and a sign-off.

People often write the question as the subject and only "Hi,\\n\\nThanks,\\nAnna" (or "Hello
team", or "see subject") in the body. That body has nothing to answer; the subject has. A body
counts as empty of content when every line left after the quote rules (``email_text``) is a
greeting, a closing ("Thanks", "Best regards", "Mit freundlichen Grüßen", …, also "Thanks, Anna"),
small talk ("Great, thank you!", "Got it": :mod:`bot.pleasantries`; short praise, "Great
work!", "You're the best": :mod:`bot.connectors.email_praise`), a pointer at the subject
("see subject", "siehe Betreff"), in a mail with attached files a pointer at them ("see
attached", "please find the attached log file", "siehe Anhang": the files are never read), the
sender's own name, or a short line of capitalised words (a name, a title, a company; with a
title's small lower-case words: "Head of Sales", "Jefa de Ventas y Marketing"), an address or
a number below a closing (the signature block and a legal disclaimer below a closing are cut
first: ``email_signature``). A body that only quotes an
earlier mail asks nothing, not even its subject: it is only quoted text, and gets no reply.

A reply whose new part only thanks, acknowledges or signs off is not answered at all
(:func:`only_thanks`, used by ``email_policy``).

The rules are deliberately narrow: a body line that fits none of them, or any line with a
question mark (of any script: "¿", "؟", "‽", …), keeps the body as the question, as before.
"""

from __future__ import annotations

import re

from bot.connectors.email_praise import line_kind
from bot.connectors.email_reply_subject import REPLY_WORDS
from bot.connectors.email_signature import is_signature_line, without_sign_off
from bot.connectors.email_text import history_start, looks_quoted
from bot.pleasantries import CLOSING, GREETING, QUESTION_WORDS, has_question_mark

_PREFIX = re.compile(
    rf"^\s*(?:(?:{REPLY_WORDS}|fwd?|wg|tr|rv|enc|doorst|vb|转发|轉寄)"
    r"(?:\[\d+\]|\(\d+\)|\^\d+)?\s*[:\uff1a]\s*)+",
    re.IGNORECASE,
)
_ADDRESSEE_WORDS = 4
"""Words after a greeting word that name who is greeted ("Dear support team", "Hello all")."""
_SEE_SUBJECT = re.compile(
    r"^(?:please |pls )?(?:see|as per|as in|question in|refer to|siehe|s\.|voir|ver|vedi|zie|se)"
    r" (?:the |l'|el |l')?(?:subject(?: line)?|betreff|objet|sujet|asunto|oggetto|onderwerp|ämne)"
    r"[\s.!:)]*$|^(?:a |one )?(?:quick |short |small )?question[\s.:!]*$",
    re.IGNORECASE,
)
# a pointer at the mail's files ("see attached", "please find the attached log file"): with
# files attached it asks nothing the files do not hold, and the subject is the question
_SEE_ATTACHED = re.compile(
    r"^(?:hi,? |hello,? )?(?:please |pls |kindly )?(?:(?:see|find|check|refer to)"
    r"(?: the| my)? attach(?:ed|ment|ments)(?: \w+){0,3}|"
    r"(?:i(?:'ve| have)? )?attached (?:is |are |you will find |please find )?(?:the |my |a )?"
    r"\w+(?: \w+)?|(?:the |my )?\w+(?: \w+)? (?:is|are) attached|"
    r"siehe anhang|anbei (?:die |der |das )?\w+|voir (?:la )?pièce jointe|ver (?:el )?adjunto|"
    r"vedi (?:l')?allegato|zie (?:de )?bijlage|se bifogad fil)[\s.!:)]*$",
    re.IGNORECASE,
)
# what email_html skips as quoted history: a blockquote or a client's quote container
_HTML_HISTORY = re.compile(
    r"<blockquote\b|gmail_quote|yahoo_quoted|moz-cite-prefix|apple-mail-quote|protonmail_quote|"
    r"divRplyFwdMsg|appendonsend|mail-editor-reference-message-container",
    re.IGNORECASE,
)
_PLEASANTRY_CHARS = 120
"""Longer lines are content (and a hostile megabyte line costs no regex time)."""


def subject_question(subject: str) -> str:
    """The subject without its reply and forward prefixes ("Re:", "Fwd:", "AW:", "SV:",
    "回复：", …)."""
    return _PREFIX.sub("", subject).strip()


def asks_subject(
    question: str, name: str, text: str | None, html: str | None, *, files: bool = False
) -> bool:
    """Whether a fresh mail (no reply headers) asks its subject: its new part ``question`` is
    empty, or holds only pleasantries (:func:`only_pleasantries`, ``name`` the sender's; with
    ``files`` attached, "see attached" too), and the body (``text``, else ``html``) quotes no
    earlier mail: a "Thanks!" above a quote thanks for an answer, the subject is the thread's,
    asked already, and a quote with nothing added is only quoted text (no reply, as with reply
    headers)."""
    if question and not only_pleasantries(question, name, files=files):
        return False
    return not quotes_history(text, html)


def only_pleasantries(text: str, sender_name: str = "", *, files: bool = False) -> bool:
    """True when ``text`` (a body's new part) holds nothing to answer: only greetings,
    closings, thanks and acknowledgements, pointers at the subject and signature lines (see the
    module docstring); with ``files`` (the mail has attachments) a pointer at them too."""
    found = _pleasantry_lines(text, sender_name, see_subject=True, see_attached=files)
    return found is not None


def only_thanks(text: str, sender_name: str = "") -> bool:
    """True when ``text`` (a reply's new part) only thanks, acknowledges or signs off
    ("Thanks, Anna", "Great, thank you!", "Got it"), with greetings and signature lines around
    it: nothing to answer, and an answer would only invite another "Thanks". A pointer at the
    subject, a question mark or any other line is content; so is a greeting alone."""
    return _pleasantry_lines(text, sender_name, see_subject=False) is True


def _pleasantry_lines(
    text: str, sender_name: str, *, see_subject: bool, see_attached: bool = False
) -> bool | None:
    """None when a line of ``text`` holds content, else whether a line thanked, acknowledged
    or signed off (``see_subject``: a pointer at the subject is a pleasantry too;
    ``see_attached``: so is a pointer at the attached files)."""
    name = " ".join(sender_name.split()).lower()
    signed = False
    # a signature block and a legal disclaimer below the closing are no content (email_signature)
    for raw in without_sign_off(text).splitlines():
        line = " ".join(raw.split())
        if not line:
            continue
        if len(line) > _PLEASANTRY_CHARS or has_question_mark(line):
            return None
        if _is_name(line, name) or (see_subject and _SEE_SUBJECT.match(line)):
            continue
        if see_attached and _SEE_ATTACHED.match(line):
            continue
        # a closing first: "Liebe Grüße" and "Beste groeten" sign off, "Liebe Anna" greets
        closing = CLOSING.match(line)
        if closing and (not closing.group("name") or is_signature_line(closing.group("name"))):
            signed = True
            continue
        if not signed and _is_greeting(line):
            continue
        if signed and is_signature_line(line):
            continue
        # "Great, thank you!", "Got it", "Hi there, thanks", "Great work!": small talk said in
        # a line, praise included (email_praise)
        kind = line_kind(line)
        if kind is None:
            return None
        signed = signed or kind != "greeting"
    return signed


def quotes_history(text: str | None, html: str | None) -> bool:
    """True when the body the question came from (``text`` if it has any, else ``html``)
    quotes an earlier mail: its sender is replying, and "Thanks!" above the quote thanks
    for an answer rather than pointing at the subject."""
    if text is not None and text.strip():
        lines = text.splitlines()
        return any(looks_quoted(line) for line in lines) or (history_start(text) is not None)
    return html is not None and _HTML_HISTORY.search(html) is not None


def _is_greeting(line: str) -> bool:
    found = GREETING.match(line)
    if found is None:
        return False
    words = re.sub(r"[,.!:;]", " ", found.group("rest")).split()
    if len(words) > _ADDRESSEE_WORDS:
        return False
    return not any(word.lower() in QUESTION_WORDS for word in words)


def _is_name(line: str, name: str) -> bool:
    """The sender's name or first name, alone on a line (also after a dash: "- Anna")."""
    bare = line.lstrip("-–—~ ").rstrip(" .").lower()
    return bool(name) and bool(bare) and bare in (name, name.split()[0])
