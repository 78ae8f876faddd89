"""Inbound mail to an :class:`InboundMail`: headers that matter, and the question in the new part.

Parsing never raises on hostile or broken input: headers are decoded leniently (an unknown
charset falls back to UTF-8, then Latin-1, with replacement characters), a message without a
usable body yields an empty question, and attachments are never decoded nor held: long runs of
body lines are set aside before the stdlib parser sees them (``email_skim``), so parsing a 25 MB
mail allocates less than its own size again (it was eight times it).

The question is the *new* part of the message: quoted history, reply headers ("On … wrote:",
Outlook's "From:/Sent:" block and "-----Original Message-----"), signatures ("-- ", and the
signature block and legal disclaimer below a closing: ``email_signature``) and mobile footers
are removed; for HTML mail, blockquotes and the quote containers of common clients
(Gmail, Apple Mail, Thunderbird, Outlook, Yahoo) are dropped before the text is extracted. A
``format=flowed`` text part (RFC 3676, ``DelSp=yes`` too) is decoded before those rules apply.
A mail forwarded inline asks about the forwarded mail's text too (``email_forward``). A fresh
mail whose body is empty, or only a greeting and a sign-off (with files attached, "see attached"
too), asks its subject (``email_subject``);
a reply that only thanks is marked ``only_thanks`` (never answered: ``email_policy``).
"""

from __future__ import annotations

import email.policy
import hashlib
import re
from dataclasses import dataclass
from email.message import Message
from email.parser import BytesParser
from email.utils import getaddresses

from bot.connectors.email_bodies import MAX_TEXT_BYTES, TextFormat, bodies, leaf_parts
from bot.connectors.email_charsets import decode_bytes, decode_words
from bot.connectors.email_forward import forwarded_question
from bot.connectors.email_parts import carries_files, is_scheduling
from bot.connectors.email_skim import parse_skimmed, skim, skimmed
from bot.connectors.email_subject import asks_subject, only_thanks, quotes_history, subject_question
from bot.connectors.email_text import html_to_new_text, strip_quoted_text

__all__ = [
    "MAX_TEXT_BYTES", "InboundMail", "decode_bytes", "decode_words", "is_valid_address",
    "parse_mail",
]  # fmt: skip

_ADDRESS = re.compile(
    r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@"
    r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$"
)
_MSG_ID = re.compile(r"<[^<>\s]+>")
# an id written without its brackets: printable ASCII, no spaces, as long as a header can carry
_BARE_ID = re.compile(r"[!-;=?-~]{3,900}")


@dataclass(frozen=True)
class InboundMail:
    """What the connector needs from one inbound message (every field already decoded)."""

    message_id: str
    """``<…>`` from the header, or a stable ``<sha256@citecast.invalid>`` of the raw bytes."""
    sender: str | None
    """The From address, lower-cased, or None when missing or invalid."""
    sender_name: str
    subject: str
    in_reply_to: str | None
    references: tuple[str, ...]
    question: str
    auto_submitted: str | None
    precedence: str | None
    list_id: str | None
    """``List-Id``, else the first other RFC 2369 list header (``List-Unsubscribe``, …) named
    as ``header: value``; None for mail that does not come through a list or a bulk sender."""
    return_path: str | None
    autoreply_headers: tuple[str, ...]
    """Names of vendor auto-reply headers present (X-Autoreply, X-Autorespond, …)."""
    report: bool = False
    """A delivery or read report (``multipart/report``: DSN, MDN), never a question."""
    calendar: bool = False
    """A calendar invitation or an answer to one (iMIP, ``email_parts``), never a question."""
    files: bool = False
    """Carries an attached file or mail (never read)."""
    subject_asked: bool = False
    """The question is the subject: the body was empty or only a greeting and a sign-off."""
    only_thanks: bool = False
    """A reply (reply headers, or a body quoting an earlier mail) whose new text only thanks,
    acknowledges or signs off ("Thanks, Anna", "Got it"): nothing to answer (``email_policy``)."""
    no_question: str = ""
    """Why ``question`` is empty, as the log says it ("empty message", "no question (only
    quoted text)", …); "" when there is a question."""
    sender_address: str | None = None
    """The From address as written, only its domain lower-cased: the reply goes to it (a
    mailbox's local part may be case-sensitive, RFC 5321 §2.4); ``sender`` is the folded form
    every comparison uses. None when ``sender`` is."""
    to: tuple[str, ...] = ()
    """The addresses of ``To:``, lower-cased (``email_copied``)."""
    cc: tuple[str, ...] = ()
    """The addresses of ``Cc:``, lower-cased (``email_copied``)."""

    @property
    def is_reply(self) -> bool:
        """True when the message answers an earlier one."""
        return bool(self.in_reply_to or self.references)


_AUTOREPLY_HEADERS = ("x-autoreply", "x-autorespond", "x-autogenerated")
# [MS-OXCMAIL] 2.1.3.2.20: a comma-separated list of what the sender does not want back (DR,
# NDR, RN, NRN: delivery and read reports; OOF: out-of-office notices; AutoReply: every other
# automatic reply), or None or All. Our answer is an automatic reply that is not an OOF notice.
_SUPPRESS_OUR_REPLY = frozenset({"all", "autoreply"})


def _autoreply_headers(msg: Message) -> tuple[str, ...]:
    found = [name for name in _AUTOREPLY_HEADERS if name in msg]
    suppress = (_header(msg, "x-auto-response-suppress") or "").lower()
    if _SUPPRESS_OUR_REPLY.intersection(re.split(r"[\s,]+", suppress)):
        found.append("x-auto-response-suppress")
    return tuple(found)


# RFC 2369: mail from a list, or a bulk sender (List-Unsubscribe is what newsletters carry)
_LIST_HEADERS = (
    "list-unsubscribe", "list-post", "list-help", "list-subscribe", "list-owner", "list-archive",
)  # fmt: skip


def _list_header(msg: Message) -> str | None:
    found = _header(msg, "list-id")
    if found is not None:
        return found
    for name in _LIST_HEADERS:
        value = _header(msg, name)
        if value is not None:
            return f"{name}: {value}"
    return None


def parse_mail(raw: bytes) -> InboundMail:
    """Parse raw RFC 5322 bytes; never raises for malformed input."""
    body_read = True
    # long runs of body lines (attachments, text past what is read) are set aside before the
    # stdlib parser sees them: it held a 25 MB mail about eight times over (email_skim)
    runs = skim(raw)
    try:
        msg = parse_skimmed(runs, keep_bytes=2 * MAX_TEXT_BYTES + 1)
        body_text, body_html, plain_format = bodies(msg)
        calendar, files = is_scheduling(leaf_parts(msg)), carries_files(msg)
    except RecursionError:
        # MIME parts nested thousands deep exhaust the stdlib parser's recursion. Raising
        # would have the mail retried for ever (IMAP) or for days (SMTP 451): read its headers
        # only, and take no question from a body that cannot be read.
        parser = BytesParser(policy=email.policy.compat32)
        msg = parser.parsebytes(skimmed(runs), headersonly=True)
        body_text, body_html, plain_format = None, None, TextFormat()
        body_read = calendar = files = False
    sender_name, written = _first_address(msg)
    sender = None if written is None else written.lower()
    subject = _header(msg, "subject") or ""
    in_reply_to = _first_id(_header(msg, "in-reply-to"))
    references = tuple(_MSG_ID.findall(_header(msg, "references") or ""))
    subject_asked = False
    no_question = ""
    if body_text is not None and body_text.strip():
        flowed, delsp = plain_format.flowed, plain_format.delsp
        # a mail forwarded inline asks about the forwarded text, which the quote rules cut
        question = forwarded_question(
            body_text, subject, flowed=flowed, delsp=delsp
        ) or strip_quoted_text(body_text, flowed=flowed, delsp=delsp)
    elif body_html is not None:
        # HTML-only mail, or an empty text/plain alternative next to the real HTML body.
        question = html_to_new_text(body_html)
    else:
        question = ""
    if (
        body_read
        and not (in_reply_to or references)
        and asks_subject(question, sender_name, body_text, body_html, files=files)
    ):
        if subject_question(subject):
            question, subject_asked = subject_question(subject), True
        elif question:
            # "Hi,\n\nThanks,\nG" asks its subject, and there is none: nothing to answer
            # (answered, it was small talk: "You're welcome!")
            question = ""
            no_question = "no question (only a greeting and a sign-off, and no subject)"
    if not question and not no_question:
        no_question = _why_empty(body_read, body_text, body_html, files)
    # the cheap test first: only a short body of pleasantries is worth a look for a quote
    only_thanks_ = (
        body_read
        and only_thanks(question, sender_name)
        and bool(in_reply_to or references or quotes_history(body_text, body_html))
    )
    return InboundMail(
        message_id=_first_id(_header(msg, "message-id")) or _derived_id(raw),
        sender=sender,
        sender_name=sender_name,
        subject=subject,
        in_reply_to=in_reply_to,
        references=references,
        question=question,
        auto_submitted=_lower(_header(msg, "auto-submitted")),
        # X-Precedence: what some autoresponders (cPanel's) write next to or instead of it
        precedence=_lower(_header(msg, "precedence") or _header(msg, "x-precedence")),
        list_id=_list_header(msg),
        return_path=_header(msg, "return-path"),
        autoreply_headers=_autoreply_headers(msg),
        report=msg.get_content_type() == "multipart/report",
        calendar=calendar,
        files=files,
        subject_asked=subject_asked,
        only_thanks=only_thanks_,
        no_question=no_question,
        sender_address=None if written is None else _domain_folded(written),
        to=_addresses(msg, "to"),
        cc=_addresses(msg, "cc"),
    )


def _why_empty(read: bool, text: str | None, html: str | None, files: bool) -> str:
    """Why a mail's question came out empty, for the log line that says it gets no reply."""
    if not read:
        return "no question (its body could not be read)"
    if quotes_history(text, html):
        return "no question (only quoted text)"
    if (text or "").strip():
        return "no question (only a signature or footer)"
    # nothing written at all: "only quoted text" sent the reader looking for a quote
    return "no question (only attachments, which are not read)" if files else "empty message"


def _domain_folded(address: str) -> str:
    local, _, domain = address.rpartition("@")
    return f"{local}@{domain.lower()}"


def _addresses(msg: Message, name: str) -> tuple[str, ...]:
    """The valid addresses of every ``name`` header (``To``, ``Cc``), lower-cased."""
    try:
        values = msg.get_all(name) or []
        pairs = getaddresses([" ".join(str(value).split()) for value in values])
    except Exception:  # a defective header: as if absent
        return ()
    found = (address.strip().lower() for _, address in pairs)
    return tuple(address for address in found if is_valid_address(address))


def is_valid_address(address: str | None) -> bool:
    """True for a plain ``local@domain.tld`` address (ASCII, at least one dot in the domain)."""
    return bool(address) and len(address or "") <= 254 and bool(_ADDRESS.match(address or ""))


def _derived_id(raw: bytes) -> str:
    return f"<{hashlib.sha256(raw).hexdigest()[:40]}@citecast.invalid>"


def _lower(value: str | None) -> str | None:
    return None if value is None else value.strip().lower()


def _first_id(value: str | None) -> str | None:
    """The first ``<id>`` of a Message-ID, In-Reply-To or References value; a bare
    ``id@host`` written without the brackets (some scripts and old clients) is that id, so
    the reply still carries In-Reply-To and threads."""
    if not value:
        return None
    found = _MSG_ID.search(value)
    if found:
        return found.group(0)
    bare = value.strip()
    if "@" in bare and _BARE_ID.fullmatch(bare):
        return f"<{bare}>"
    return None


def _header(msg: Message, name: str) -> str | None:
    """The decoded value of a header (RFC 2047 words decoded, unknown charsets tolerated)."""
    raw = _raw_header(msg, name)
    return None if raw is None else decode_words(raw)


def _raw_header(msg: Message, name: str) -> str | None:
    """The header's value as written (encoded words not decoded), or None when absent."""
    try:
        value = msg.get(name)
    except Exception:  # a defective header object; treat it as absent
        return None
    if value is None or isinstance(value, str):
        return value
    # Raw 8-bit header bytes (SMTPUTF8 mail writes "Größe" as UTF-8, RFC 6532) make compat32
    # hand out a Header, whose str() would turn them into U+FFFD; the raw item keeps them.
    raw = next((v for k, v in msg.raw_items() if k.lower() == name.lower()), None)
    return raw if isinstance(raw, str) else str(value)


def _first_address(msg: Message) -> tuple[str, str | None]:
    # Addresses are parsed before encoded words are decoded (RFC 2047 §5: an encoded word is
    # never part of an addr-spec): decoded first, a display name such as
    # "=?utf-8?q?boss=40corp.example?=" would be read as the sender's address. Only a header
    # with no address of its own (a broken mailer that encoded all of it) is read decoded.
    value = _raw_header(msg, "from")
    if not value:
        return "", None
    found = _address_in(" ".join(value.split()), decode_names=True)
    return found if found[1] is not None else _address_in(decode_words(value))


def _address_in(value: str, *, decode_names: bool = False) -> tuple[str, str | None]:
    """The first valid ``(name, address)`` of an address-list header value."""
    try:
        pairs = getaddresses([value])
    except Exception:
        return "", None
    for name, address in pairs:
        address = address.strip()
        # as written (the reply goes to it); checked folded, as every comparison is
        if is_valid_address(address.lower()):
            return (decode_words(name) if decode_names else name).strip(), address
    return "", None
