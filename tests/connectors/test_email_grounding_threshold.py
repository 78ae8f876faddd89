"""An emailed reply marks a citation weak (``[1?]``) below ``grounding.threshold``, as every
connector building its render context with ``context_for`` does (email, Discord, Discourse,
Slack).

Found in a config-key audit: ``context_for`` left ``RenderContext``'s own 0.35 in place, so a
citation with support 0.49 read ``[1]`` at threshold 0.6, and one with 0.2 read ``[1?]`` at 0.1.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import GroundingSettings
from bot.connectors.email import EmailConnector
from bot.models import Answer, Citation, Source
from tests.connectors.email_flow_harness import StaticAnswerer, capturing, send
from tests.fakes.email_world import email_settings, inbound_mail, services
from tests.fakes.smtp_capture import wait_for


def supported(support: float) -> Answer:
    guide = Source(id="guide", title="Install guide", url="https://docs.example.org/install")
    citation = Citation(1, guide, 1, support=support)
    return Answer(text="Install it with pip.[^1]", citations=(citation,))


@pytest.mark.parametrize(
    ("threshold", "support", "weak"), [(0.6, 0.49, True), (0.1, 0.2, False), (0.35, 0.34, True)]
)
async def test_a_reply_is_weak_below_the_configured_threshold(
    tmp_path: Path, threshold: float, support: float, weak: bool
) -> None:
    with capturing() as capture:
        settings = email_settings(capture.port)
        grounding = GroundingSettings(threshold=threshold)
        settings = settings.model_copy(update={"grounding": grounding})
        connector = EmailConnector(services(tmp_path, StaticAnswerer(supported(support)), settings))
        await connector.start()
        try:
            await send(connector, inbound_mail(message_id="<weak@example.com>"))
            await wait_for(lambda: len(capture.handler.mails) == 1)
        finally:
            await connector.stop()
        msg = capture.handler.mails[0].message()
    plain = next(p for p in msg.walk() if p.get_content_type() == "text/plain").get_content()
    html = next(p for p in msg.walk() if p.get_content_type() == "text/html").get_content()
    for part in (plain, html):
        assert ("[1?]" in part) is weak, part
        assert ("[1]" in part) is not weak, part
