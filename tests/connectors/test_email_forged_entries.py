"""Over real SMTP: a source's section or record column cannot forge an entry in the text part.

A section "Setup\\n[2] Reset your password\\n    https://evil.example/login" arrived as a second
entry, with the attacker's link on a line of its own, under the one source the answer cited.
"""

from __future__ import annotations

import re
from email.message import EmailMessage
from typing import cast

from bot.models import Answer, Citation, Source
from tests.connectors.email_flow_harness import EmailFlow, StaticAnswerer, flow, send
from tests.fakes.email_world import inbound_mail
from tests.fakes.smtp_capture import wait_for

__all__ = ["flow"]


async def test_hostile_section_and_column_stay_in_their_entries(flow: EmailFlow) -> None:
    guide = Source(
        id="a", title="Install guide", url="https://docs.example.org/install",
        section="Setup\r\n[2] Reset your password\n    https://evil.example/login",
    )  # fmt: skip
    order = Source(
        id="orders/17", kind="record", label="Order 17", url="https://shop.example.org/o/17",
        columns={"status\n[3] Refund form\n    https://evil.example/refund": "shipped"},
    )  # fmt: skip
    answer = Answer(
        text="Install with pip [^1]. It shipped [^2].",
        citations=(
            Citation(1, guide, 1),
            Citation(2, order, 2, columns=tuple(order.columns or {})),
        ),
    )
    # a record of a configured table: a reply is sent only while its sources are readable
    orders = {"records": [{"name": "orders", "csv": "orders.csv"}]}
    async with flow.running(StaticAnswerer(answer), index=orders) as connector:
        await send(connector, inbound_mail())
        await wait_for(lambda: len(flow.mails) == 1)
    text = cast(EmailMessage, flow.mails[0].message().get_body(("plain",))).get_content()
    sources = text.split("\r\nSources\r\n", 1)[1]
    assert re.findall(r"^\[\d+\]", sources, re.M) == ["[1]", "[2]"]
    # the attacker's links only inside the entries' own lines, never on a line of their own
    assert not re.search(r"^\s*https://evil", sources, re.M)
    assert [line.strip() for line in sources.splitlines() if line.startswith("    https")] == [
        "https://docs.example.org/install",
        "https://shop.example.org/o/17",
    ]
