"""Each turn's ``position`` in the conversation endpoint: its place among all the conversation's
web turns, the same on whichever page it comes, and counted without reading the conversation's
turns (``web_conversation_positions``)."""

from __future__ import annotations

from pathlib import Path

from bot.connectors.web_conversation_positions import TurnPositions
from bot.connectors.web_turns import CONVERSATION_PAGE
from bot.store import Store
from tests.connectors.web.conftest import WebHarness, passage
from tests.connectors.web.test_web_long_conversation import conversation_pages, seed


async def test_every_turn_has_its_place_in_the_whole_conversation(web: WebHarness) -> None:
    store = web.services.store
    conversation = store.new_conversation_id()
    ids = seed(store, conversation, 3, passage(1))
    # a failed turn is a card of the conversation too; another channel's turns are not
    ids.append(store.add_turn(conversation, "web", "Failed?", status="failed"))
    store.add_turn(conversation, "slack", "Asked in Slack?", status="done")
    ids += seed(store, conversation, 2 * CONVERSATION_PAGE + 40, passage(1), "R")
    seed(store, store.new_conversation_id(), 30, passage(1))  # another conversation's
    pages = await conversation_pages(web.client, conversation)
    assert [len(page["turns"]) for page in pages] == [CONVERSATION_PAGE, CONVERSATION_PAGE, 44]
    shown = [(t["turn_id"], t["position"]) for page in reversed(pages) for t in page["turns"]]
    assert shown == [(turn_id, n) for n, turn_id in enumerate(ids, 1)]
    # a short conversation, all on one page: 1, 2, 3
    short = store.new_conversation_id()
    seed(store, short, 3, passage(1))
    [page] = await conversation_pages(web.client, short)
    assert [turn["position"] for turn in page["turns"]] == [1, 2, 3]


def test_a_count_is_the_same_however_often_and_in_any_order_asked(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "store.db")
    try:
        conversation = store.new_conversation_id()
        ids = seed(store, conversation, 3 * 64 + 10, passage(1))
        positions = TurnPositions(store)
        late = ids[2 * 64 + 5]
        assert positions.before(conversation, "web", late) == 2 * 64 + 5
        # again, and for turns before and after it (Store.count_channel_turns reads no turn:
        # tests/core/test_store_channel_count.py)
        assert positions.before(conversation, "web", late) == 2 * 64 + 5
        assert positions.before(conversation, "web", ids[64 + 3]) == 64 + 3
        assert positions.before(conversation, "web", ids[-1]) == 3 * 64 + 9
        assert positions.before(conversation, "web", ids[0]) == 0
    finally:
        store.close()
