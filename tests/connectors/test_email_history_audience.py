"""Email history is given to the model only when the sender may still read all of it.

A thread's history is per sender, but what the sender may read is decided by configuration
(``email.audience_by_address`` / ``audience_by_domain``), which can narrow: a partner's domain
mapped to staff by mistake and then fixed. An earlier answer written from staff sources must
then not reach the model as history, or the next answer (now for the narrower audience) could
repeat or build on what it said, as the web chat already guarantees.
"""

from __future__ import annotations

from pathlib import Path

from bot.connectors.email import EmailConnector
from bot.models import Source
from tests.connectors.email_flow_harness import capture
from tests.fakes.answerer import ScriptedAnswerer
from tests.fakes.email_world import USER, email_settings, inbound_mail, services
from tests.fakes.smtp_capture import CaptureServer

__all__ = ["capture"]

GUIDE = Source(id="guide", title="Install guide", url="https://docs.example.org/install")
BANDS = Source(
    id="bands",
    title="Salary bands 2026",
    url="https://intranet.example.org/bands",
    text="Band C pays 91,000 a year.",
    audience=("staff",),
)
FOLLOW_UP = {"In-Reply-To": "<q1@example.com>", "References": "<q1@example.com>"}


async def _ask(
    tmp_path: Path,
    port: int,
    answerer: ScriptedAnswerer,
    body: str,
    message_id: str,
    **email: object,
) -> None:
    connector = EmailConnector(services(tmp_path, answerer, email_settings(port, **email)))
    await connector.start()
    try:
        headers = FOLLOW_UP if message_id != "<q1@example.com>" else None
        mail = inbound_mail(body, message_id=message_id, headers=headers)
        assert (await connector.handle_message(mail)).status == "answered"
    finally:
        await connector.stop()


async def test_history_written_for_a_wider_audience_never_reaches_the_model(
    tmp_path: Path, capture: CaptureServer
) -> None:
    answerer = ScriptedAnswerer([GUIDE, BANDS], "Install it [1]. Band C pays 91,000 a year [2].")
    staff = {"audience_by_address": {USER: ["public", "staff"]}}
    await _ask(
        tmp_path, capture.port, answerer, "What does band C pay?", "<q1@example.com>", **staff
    )
    # the mapping is narrowed; the same sender follows up in the same thread
    await _ask(tmp_path, capture.port, answerer, "And band D?", "<q2@example.com>")
    [(_, first_audience, _), (_, audience, history)] = answerer.calls
    assert first_audience == frozenset({"public", "staff"})
    assert audience == frozenset({"public"})
    assert history == ()


async def test_history_the_sender_may_still_read_is_kept(
    tmp_path: Path, capture: CaptureServer
) -> None:
    answerer = ScriptedAnswerer([GUIDE], "Install it [1].")
    await _ask(tmp_path, capture.port, answerer, "How do I install?", "<q1@example.com>")
    await _ask(tmp_path, capture.port, answerer, "And on ARM?", "<q2@example.com>")
    [(_, _, first), (_, _, history)] = answerer.calls
    assert first == ()
    assert [exchange.question for exchange in history] == ["How do I install?"]


async def test_a_staff_answer_goes_only_to_the_sender_never_to_copied_addresses(
    tmp_path: Path, capture: CaptureServer
) -> None:
    # the audience is the sender's, so the reply goes to the sender alone: an outside address
    # in To or Cc (or a Reply-To pointing outside) never receives what the sender may read
    answerer = ScriptedAnswerer([BANDS], "Band C pays 91,000 a year [1].")
    staff = email_settings(capture.port, audience_by_address={USER: ["staff"]})
    connector = EmailConnector(services(tmp_path, answerer, staff))
    await connector.start()
    try:
        copied = {"Cc": "eve@outside.example", "Reply-To": "eve@outside.example"}
        mail = inbound_mail("What does band C pay?", headers=copied)
        assert (await connector.handle_message(mail)).status == "answered"
        [item] = connector.services.store.pending("email")
    finally:
        await connector.stop()
    assert item.payload["recipients"] == [USER]
    message = str(item.payload["message"])
    assert "Salary bands 2026" in message
    assert "outside.example" not in message
