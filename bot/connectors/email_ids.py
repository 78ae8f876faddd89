"""The ids of an inbound mail's answer: its outbox item, its thread and its conversation."""

from __future__ import annotations

import hashlib

from bot.connectors.email_compose import thread_key_of
from bot.connectors.email_parse import InboundMail


def outbox_id(message_id: str) -> str:
    """The outbox id of the reply to ``message_id``: one reply per Message-ID, however often
    the mail is delivered."""
    return "email-" + hashlib.sha256(message_id.encode("utf-8", "replace")).hexdigest()[:40]


def thread_key(mail: InboundMail) -> str:
    """The thread's key: carried by our own earlier reply, else a hash of the thread root."""
    for ref in (*mail.references, mail.in_reply_to or ""):
        key = thread_key_of(ref)
        if key:
            return key
    root = mail.references[0] if mail.references else (mail.in_reply_to or mail.message_id)
    return hashlib.sha256(root.encode("utf-8", "replace")).hexdigest()[:24]


def conversation_id(thread: str, sender: str) -> str:
    """The conversation of ``sender`` in ``thread`` (its turns are the history).

    Per sender: someone else replying in the same thread must not see this sender's
    history, which may have been answered for a wider audience."""
    digest = hashlib.sha256(f"{thread}|{sender}".encode()).hexdigest()[:32]
    return f"email:{digest}"
