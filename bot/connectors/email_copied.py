"""Mail on which the bot is only copied (``Cc:``), not written to.

Once someone copies the bot's address on a thread between people, every reply-all reaches it
too: "Bob, I'll set this up on the build server tomorrow" is written to Bob, and an answer to it
("I could not find anything about that in the knowledge base.") is noise in everyone's inbox.
So a mail whose ``Cc:`` holds the bot's address and whose ``To:`` does not is answered only when

1. its new text asks something (:func:`asks_something`: a question mark of any script, or a
   sentence or clause that opens with a question word: "does it need a database server"), and
2. the answer cites the knowledge base: a "not found" (or a reply saying citecast is not set
   up) is not sent (the connector logs why).

A mail that names the bot in neither ``To:`` nor ``Cc:`` was sent to it another way: a
``Bcc:`` (over SMTP the envelope's ``RCPT TO`` is the bot's, over IMAP it is simply in the
mailbox), an alias or a forwarding rule. Its sender chose to write to the bot alone, so it is
answered as mail written to it. The bot's addresses are ``email.address`` and the envelope
recipients the SMTP listener accepted the mail for, each also with a ``+tag``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.connectors.email_folded_address import folded_address
from bot.connectors.email_parse import InboundMail
from bot.pleasantries import has_question_mark

# what opens a question without its question mark ("Does it need a database server"), in the
# languages the reply rules read; pronouns, "please", "will" and "have" are not here: "I'll set
# this up", "Will do", "Have a good weekend" tell rather than ask
_ASKING = frozenset(
    {
        "how", "what", "why", "where", "when", "which", "who", "whom", "whose", "can", "could",
        "does", "do", "did", "is", "are", "was", "were", "should", "would", "wie", "warum",
        "wieso", "weshalb", "wo", "wann", "welche", "welcher", "welches", "kann", "können",
        "gibt", "muss", "comment", "pourquoi", "où", "quand", "quel", "quelle", "quels",
        "quelles", "est-ce", "cómo", "qué", "dónde", "cuándo", "cuál", "puedo", "come",
        "perché", "dove", "quando", "quale", "posso", "hoe", "wat", "waar", "waarom",
        "wanneer", "welke", "kan",
    }
)  # fmt: skip
# a clause starts after a line break or a sentence's or clause's punctuation
_CLAUSES = re.compile(r"[\n.!;:,]+")
_FIRST_WORD = re.compile(r"[\w'’-]+")


def copied_only(mail: InboundMail, address: str, envelope: Iterable[str] = ()) -> bool:
    """True when ``mail`` names the bot (``address``, or an envelope recipient it was
    delivered to) in ``Cc:`` and not in ``To:`` (see the module docstring)."""
    own = {folded_address(address)} | {folded_address(rcpt) for rcpt in envelope}
    own.discard("")
    if any(folded_address(item) in own for item in mail.to):
        return False
    return any(folded_address(item) in own for item in mail.cc)


def asks_something(text: str) -> bool:
    """Whether ``text`` (a mail's new part) asks a question: a question mark of any script, or
    a clause that opens with a question word ("does it need a database server")."""
    if has_question_mark(text):
        return True
    for clause in _CLAUSES.split(text):
        first = _FIRST_WORD.match(clause.lstrip())
        if first is not None and first.group(0).lower() in _ASKING:
            return True
    return False
