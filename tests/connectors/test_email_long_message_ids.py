"""Threading headers keep every message id as written, however long: a client threads a reply
only when its In-Reply-To and References name the ids of the mails it answers."""

from __future__ import annotations

import email
import email.policy

from bot.connectors.email_compose import compose_reply
from bot.connectors.email_parse import parse_mail
from tests.fakes.email_world import BOT, inbound_mail

# the shape of an Exchange Online Message-ID (81 characters)
OUTLOOK_ID = "<AM0PR07MB4417E5C2F8F4B0B5F0A3C4E1C4A09@AM0PR07MB4417.eurprd07.prod.outlook.com>"
ROOT_ID = "<DB9PR08MB65880A1B2C3D4E5F60718293A4B5C@DB9PR08MB6588.eurprd08.prod.outlook.com>"


def reply_to(raw: bytes) -> tuple[str, email.message.EmailMessage]:
    out = compose_reply(
        {"text": "Answer.\n", "html": "<p>Answer.</p>"}, parse_mail(raw),
        from_address=BOT, from_name="citecast",
        message_id="<cc-ab12ab12ab12ab12ab12ab12.0123456789abcdef@docs.example.org>",
        max_attachment_bytes=0,
    )  # fmt: skip
    parsed = email.message_from_string(out.message, policy=email.policy.default)
    assert isinstance(parsed, email.message.EmailMessage)
    return out.message, parsed


def test_an_outlook_message_id_reaches_in_reply_to_and_references_as_written() -> None:
    # ids longer than a 78-column line used to be written as RFC 2047 encoded words
    # ("=?utf-8?q?=3CAM0PR07MB…?="), so the sender's client could not thread the answer
    raw = inbound_mail(message_id=OUTLOOK_ID, headers={"References": ROOT_ID})
    text, msg = reply_to(raw)
    assert "=?" not in text.split("\r\n\r\n", 1)[0]
    assert msg["In-Reply-To"] == OUTLOOK_ID
    assert str(msg["References"]).split() == [ROOT_ID, OUTLOOK_ID]
    assert all(len(line) <= 998 for line in text.split("\r\n"))


def test_many_references_are_folded_between_ids_never_inside_one() -> None:
    refs = [f"<{n:02d}-{'x' * 30}@mail.example.com>" for n in range(12)]
    raw = inbound_mail(message_id=OUTLOOK_ID, headers={"References": " ".join(refs)})
    text, msg = reply_to(raw)
    after = text.split("\r\nReferences: ", 1)[1].split("\r\n")
    ends = next(n for n, line in enumerate(after) if n and not line.startswith(" "))
    folded = [f"References: {after[0]}", *after[1:ends]]
    assert len(folded) > 1
    assert all(len(line) <= 78 for line in folded[:-1])
    assert str(msg["References"]).split() == [*refs, OUTLOOK_ID]


def test_an_id_no_header_can_carry_is_left_out_rather_than_mangled() -> None:
    raw = inbound_mail(message_id="<ok@example.com>", headers={"References": "<ü€@x.example>"})
    text, msg = reply_to(raw)
    assert text.isascii()
    assert str(msg["References"]).split() == ["<ok@example.com>"]
