"""``email.history_turns``: how many earlier exchanges of a thread reach the assistant.

Found in an audit of every config key: email's history was a fixed ten turns, read before the
failed and hidden ones were left out (so they used up the window), with no setting, while
every other channel has one.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.connectors.email_flow_harness import EmailFlow, flow, send
from tests.fakes.email_world import inbound_mail
from tests.fakes.smtp_capture import wait_for

__all__ = ["flow"]


async def histories_of_a_thread(flow: EmailFlow, mails: int, history_turns: int) -> list[int]:
    """Send ``mails`` mails in one thread, each a reply to the bot's first; the length of the
    history each answer was given."""
    async with flow.running(history_turns=history_turns) as connector:
        store = connector.services.store
        await send(connector, inbound_mail(message_id="<q1@example.com>"))
        await wait_for(lambda: not store.pending("email"))
        bot_id = str(flow.mails[0].message()["Message-ID"]).strip()

        def answered(n: int) -> Callable[[], bool]:
            return lambda: not store.pending("email") and len(flow.mails) == n

        for n in range(2, mails + 1):
            reply = inbound_mail(
                f"Follow-up number {n} about installing?",
                subject="Re: Installing on Linux",
                message_id=f"<q{n}@example.com>",
                headers={"In-Reply-To": bot_id},
            )
            await send(connector, reply)
            await wait_for(answered(n))
    return [len(call[2]) for call in flow.answerer.calls]


@pytest.mark.parametrize(("turns", "given"), [(3, [0, 1, 2, 3, 3]), (0, [0, 0, 0, 0, 0])])
async def test_the_setting_bounds_the_history(
    flow: EmailFlow, turns: int, given: list[int]
) -> None:
    assert await histories_of_a_thread(flow, 5, history_turns=turns) == given


async def test_twelve_earlier_exchanges_reach_the_thirteenth_mail(flow: EmailFlow) -> None:
    assert (await histories_of_a_thread(flow, 13, history_turns=12))[-1] == 12
