"""A mail forwarded inline asks about the forwarded text, not only the forwarder's one line."""

from __future__ import annotations

from bot.connectors.email_parse import parse_mail
from tests.connectors.email_flow_harness import EmailFlow, flow, send
from tests.fakes.email_world import inbound_mail
from tests.fakes.smtp_capture import wait_for

__all__ = ["flow"]

CUSTOMER = "The VPN client fails with error 809 after upgrading to 3.2."
GMAIL = (
    "Can you help with this?\n\n"
    "---------- Forwarded message ---------\n"
    "From: Alice <alice@example.org>\n"
    "Date: Mon, Nov 30, 2026 at 9:00 AM\n"
    "Subject: VPN broken\n"
    "To: Bob <bob@example.org>\n\n"
    f"{CUSTOMER}\n\n"
    "On Sun, Nov 29, 2026 at 8:00 AM Support <help@example.org> wrote:\n"
    "> Please send the error code.\n\n"
    "-- \nAlice\n"
)
APPLE = (
    "\n\nBegin forwarded message:\n\n"
    "From: Alice <alice@example.org>\n"
    "Subject: VPN broken\n"
    "Date: 30 November 2026 at 09:00:00 CET\n"
    "To: Bob <bob@example.org>\n\n"
    f"{CUSTOMER}\n"
)
OUTLOOK = (
    "Please see below\n\n"
    "________________________________\n"
    "From: Alice <alice@example.org>\n"
    "Sent: Monday, November 30, 2026 9:00 AM\n"
    "To: Bob <bob@example.org>\n"
    "Subject: VPN broken\n\n"
    f"{CUSTOMER}\n"
)
THUNDERBIRD_DE = (
    "Kannst du helfen?\n\n"
    "-------- Weitergeleitete Nachricht --------\n"
    "Betreff: VPN kaputt\n"
    "Datum: Mon, 30 Nov 2026 09:00:00 +0100\n"
    "Von: Alice <alice@example.org>\n"
    "An: Bob <bob@example.org>\n\n"
    f"{CUSTOMER}\n"
)
MUTT = (
    "FYI.\n\n"
    "----- Forwarded message from Alice <alice@example.org> -----\n\n"
    "Date: Mon, 30 Nov 2026 09:00:00 +0100\n"
    "From: Alice <alice@example.org>\n"
    "Subject: VPN broken\n\n"
    f"{CUSTOMER}\n\n"
    "----- End forwarded message -----\n\n"
    "Is 3.2 known to break this?\n"
)


def question(body: str, subject: str = "Fwd: VPN broken") -> str:
    return parse_mail(inbound_mail(body, subject=subject)).question


def test_a_gmail_forward_asks_the_forwarded_text_without_its_headers_quotes_or_signature() -> None:
    assert question(GMAIL) == f"Can you help with this?\n\nForwarded message:\n{CUSTOMER}"


def test_a_forward_with_no_words_of_the_senders_own_asks_the_forwarded_text() -> None:
    # it used to ask the subject line, "Fwd: VPN broken"
    assert question(APPLE) == f"Forwarded message:\n{CUSTOMER}"


def test_an_outlook_forward_is_known_by_its_subject_and_header_block() -> None:
    assert question(OUTLOOK, "FW: VPN broken") == (
        f"Please see below\n\nForwarded message:\n{CUSTOMER}"
    )


def test_a_localized_thunderbird_forward_and_a_mutt_forward_with_text_after_it() -> None:
    assert question(THUNDERBIRD_DE, "WG: VPN kaputt") == (
        f"Kannst du helfen?\n\nForwarded message:\n{CUSTOMER}"
    )
    assert question(MUTT) == (
        f"FYI.\n\nForwarded message:\n{CUSTOMER}\n\nIs 3.2 known to break this?"
    )


def test_a_signature_above_the_forwarded_mail_ends_only_the_senders_words() -> None:
    signed = GMAIL.replace("\n\n-----", "\n\n-- \nBob Example\nACME IT\n\n-----", 1)
    assert signed != GMAIL
    assert question(signed) == f"Can you help with this?\n\nForwarded message:\n{CUSTOMER}"


def test_a_reply_is_not_a_forward() -> None:
    # Outlook's header block in a reply (not a "FW:" subject) is history, as before
    assert question(OUTLOOK, "RE: VPN broken") == "Please see below"
    # a forward marker quoted with ">" or below a reply header is history too
    quoted = "Thanks!\n\nOn Mon, Nov 30, 2026 at 9:00 AM Bob wrote:\n" + "".join(
        f"> {line}\n" for line in GMAIL.splitlines()
    )
    assert question(quoted, "Re: Fwd: VPN broken") == "Thanks!"
    below = OUTLOOK.replace("\n\n" + CUSTOMER, "\n\n" + GMAIL)
    assert question(below, "RE: VPN broken") == "Please see below"


async def test_a_forwarded_mail_is_answered_about_what_it_forwards(flow: EmailFlow) -> None:
    async with flow.running() as connector:
        await send(connector, inbound_mail(GMAIL, subject="Fwd: VPN broken"))
        await wait_for(lambda: len(flow.mails) == 1)
    assert [call[0] for call in flow.answerer.calls] == [
        f"Can you help with this?\n\nForwarded message:\n{CUSTOMER}"
    ]
