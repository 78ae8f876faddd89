"""A body that only points at its attachment asks its subject, as "see subject" does.

Found by QA (emailqa): "Hi, see attached. Thanks, Ann" or "please find the attached log file"
with the subject "How do I back up citecast?" was asked as written, answered "not found", and
the report listed the body as a document to write. Attachments are never read, so the subject
is the question; the reply still says the files were not read.
"""

from __future__ import annotations

from email.message import EmailMessage
from email.policy import SMTP

import pytest

from bot.connectors.email_parse import parse_mail
from tests.connectors.email_flow_harness import EmailFlow, flow, send
from tests.fakes.email_world import inbound_mail
from tests.fakes.smtp_capture import wait_for

__all__ = ["flow"]

SUBJECT = "How do I back up citecast?"


def _mail_with_log(body: str) -> bytes:
    msg = EmailMessage(policy=SMTP)
    msg["From"] = "Ann Example <ann@example.com>"
    msg["To"] = "help@docs.example.org"
    msg["Subject"] = SUBJECT
    msg["Message-ID"] = "<see-attached@example.com>"
    msg.set_content(body)
    msg.add_attachment(b"ERROR store locked\n", maintype="text", subtype="plain",
                       filename="citecast.log")  # fmt: skip
    return msg.as_bytes()


@pytest.mark.parametrize(
    "body",
    [
        "Hi,\n\nsee attached.\n\nThanks,\nAnn",
        "Hi,\n\nplease find the attached log file.\n\nAnn",
        "See the attached mail.",
        "Hallo,\n\nsiehe Anhang.\n\nGruß\nAnn",
    ],
)
async def test_a_body_that_only_points_at_its_attachment_asks_the_subject(
    flow: EmailFlow, body: str
) -> None:
    async with flow.running() as connector:
        await send(connector, _mail_with_log(body))
        await wait_for(lambda: len(flow.mails) == 1)
    assert [call[0] for call in flow.answerer.calls] == [SUBJECT]
    text = flow.mails[0].message().get_body(("plain",))
    assert text is not None and "I cannot read attachments" in str(text.get_content())


def test_see_attached_without_a_file_is_still_the_question() -> None:
    # nothing is attached: the pointer points at nothing, and the body stays as written
    mail = parse_mail(inbound_mail("Hi,\n\nsee attached.\n\nThanks,\nAnn", subject=SUBJECT))
    assert (mail.question, mail.subject_asked) == ("Hi,\n\nsee attached.\n\nThanks,\nAnn", False)


def test_a_question_next_to_the_pointer_is_still_the_question() -> None:
    body = "Hi,\n\nsee attached, the backup stops at 80%.\n\nThanks,\nAnn"
    mail = parse_mail(_mail_with_log(body))
    assert (mail.question, mail.subject_asked) == (body, False)
