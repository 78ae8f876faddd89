"""A text part that only asks for the HTML part is not the question: the HTML part is.

Found by an email QA pass: newsletters and CRMs send "Please use an HTML compatible email
viewer" as the text/plain alternative of the real HTML body, and that sentence was asked.
"""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from bot.connectors.email_bodies import is_placeholder
from bot.connectors.email_parse import parse_mail

QUESTION = "How long does the zephyrine server keep mail?"


def mail(text: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = "Ann Example <ann@example.com>"
    msg["To"] = "help@docs.example.org"
    msg["Subject"] = "Mail retention"
    msg["Message-ID"] = "<p1@example.com>"
    msg.set_content(text)
    msg.add_alternative(f"<html><body><p>Hi,</p><p>{QUESTION}</p></body></html>", subtype="html")
    return msg.as_bytes()


@pytest.mark.parametrize(
    "placeholder",
    [
        "Please use an HTML compatible email viewer to read this message.",
        "This is a multi-part message in MIME format.",
        "Your email client does not support HTML messages.",
        "To view this email, please open it in an HTML-capable email program.",
    ],
)
def test_a_placeholder_text_part_gives_way_to_the_html_part(placeholder: str) -> None:
    assert is_placeholder(placeholder)
    assert QUESTION in parse_mail(mail(placeholder)).question


def test_a_text_part_that_asks_is_still_read() -> None:
    text = "Hi,\n\nHow long does the zephyrine server keep mail? I read the HTML docs.\n"
    assert not is_placeholder("Our HTML export is ready; " + "the report lists every job. " * 20)
    assert QUESTION in parse_mail(mail(text)).question
