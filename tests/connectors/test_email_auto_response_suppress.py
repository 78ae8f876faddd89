"""``X-Auto-Response-Suppress`` ([MS-OXCMAIL] 2.1.3.2.20): only ``All`` and ``AutoReply`` ask
for no automatic reply such as ours; the other values name reports and out-of-office notices."""

from __future__ import annotations

import pytest

from bot.connectors.email_parse import parse_mail
from tests.connectors.test_email_policy import policy
from tests.fakes.email_world import inbound_mail


@pytest.mark.parametrize(
    "value", ["All", "AutoReply", "autoreply", "DR, RN, NRN, OOF, AutoReply", "OOF,AutoReply"]
)
def test_all_or_autoreply_suppresses_the_answer(value: str) -> None:
    mail = parse_mail(inbound_mail(headers={"X-Auto-Response-Suppress": value}))
    verdict = policy().screen(mail)
    assert not verdict.answer
    assert verdict.reason == "auto-reply header x-auto-response-suppress"


@pytest.mark.parametrize("value", ["OOF", "DR, RN, NRN, OOF", "DR, NDR", "None", "RN"])
def test_reports_and_out_of_office_values_do_not(value: str) -> None:
    # "OOF" asks only that no out-of-office notice come back: a question that carried it
    # used to get no answer at all
    mail = parse_mail(inbound_mail(headers={"X-Auto-Response-Suppress": value}))
    assert mail.autoreply_headers == ()
    assert policy().screen(mail).answer
