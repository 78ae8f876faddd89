"""A long web conversation: every old answer keeps working, and a question reads only what it needs.

A scale pass found each question reading the conversation's last 200 turns, parsing every
answer twice, so a question got slower as its conversation grew; past 200 turns the first
answers could no longer be rated (404), the conversation endpoint silently stopped at 200
turns, and the share rule (which must see every earlier answer) saw only the last 200. Over the
real app and store: votes find their turn by id, the endpoint pages back to the first turn,
history and the share rule give what they gave on a short conversation, and the number of
stored turns a question reads (``ConversationHistory.reads``, a real counter) does not grow with
the conversation's length. Speed itself is measured by ``bench/serve.py --history``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import httpx

from bot.assistant.base import Reply
from bot.connectors.web_conversation_history import HISTORY_REACH
from bot.connectors.web_roots import build_signer
from bot.connectors.web_turn_page import shareable_answers
from bot.connectors.web_turns import CONVERSATION_PAGE, WebTurns
from bot.models import Exchange, Source
from bot.store import Store
from tests.connectors.web.conftest import (
    CannedAnswerer,
    WebHarness,
    build_harness,
    cited_answer,
    passage,
)
from tests.connectors.web.test_web_files_made_private import local

STAFF = passage(9, audience=("staff",))  # stored while web.audience was wider
HTML = {"accept": "text/html"}


def seed(store: Store, conversation: str, count: int, source: Source, word: str = "Q") -> list[int]:
    """``count`` answered web turns citing ``source``, as a finished turn stores them."""
    ids = []
    for n in range(count):
        answer = cited_answer(source, text=f"Answer {word}{n}.[^1]").to_json()
        ids.append(store.add_turn(conversation, "web", f"{word}{n}?", answer, {"sources": []}))
    return ids


async def conversation_pages(client: httpx.AsyncClient, conversation: str) -> list[dict[str, Any]]:
    """Every page of the conversation endpoint, latest first, following ``earlier``."""
    pages: list[dict[str, Any]] = []
    query = ""
    while True:
        response = await client.get(f"/api/conversations/{conversation}{query}")
        assert response.status_code == 200, response.text
        pages.append(response.json())
        if not pages[-1]["earlier"]:
            return pages
        query = f"?before={pages[-1]['turns'][0]['turn_id']}"


async def test_the_first_answer_of_a_long_conversation_can_still_be_rated(
    web: WebHarness,
) -> None:
    store = web.services.store
    conversation = store.new_conversation_id()
    ids = seed(store, conversation, 250, passage(1))
    vote = {"conversation_id": conversation, "turn_id": ids[0], "value": "helpful"}
    response = await web.client.post("/api/feedback", json=vote)
    assert (response.status_code, response.json()) == (200, {"recorded": True, "vote": "helpful"})
    assert store.feedback(ids[0]) == ["helpful"]
    # looked up by id, the turn must still be this conversation's own answer
    other = seed(store, store.new_conversation_id(), 1, passage(1))[0]
    stranger = {**vote, "turn_id": other}
    refused = await web.client.post("/api/feedback", json=stranger)
    assert (refused.status_code, refused.json()) == (
        404,
        {"error": "no such answer in this conversation"},
    )
    pending = store.add_turn(conversation, "slack", "asked elsewhere", status="done")
    elsewhere = await web.client.post("/api/feedback", json={**vote, "turn_id": pending})
    assert elsewhere.status_code == 404
    assert store.feedback(other) == [] and store.feedback(pending) == []


async def test_the_conversation_endpoint_pages_back_to_the_first_turn(web: WebHarness) -> None:
    store = web.services.store
    conversation = store.new_conversation_id()
    ids = seed(store, conversation, 2 * CONVERSATION_PAGE + 50, passage(1))
    pages = await conversation_pages(web.client, conversation)
    sizes = [len(page["turns"]) for page in pages]
    assert sizes == [CONVERSATION_PAGE, CONVERSATION_PAGE, 50]
    assert [page["earlier"] for page in pages] == [True, True, False]
    shown = [turn["turn_id"] for page in reversed(pages) for turn in page["turns"]]
    assert shown == ids  # every turn once, oldest first
    first = pages[-1]["turns"][0]
    assert (first["question"], first["status"]) == ("Q0?", "done")
    assert first["share_url"] is not None  # nothing before it spoils it
    for bad in ("abc", "0", "-3", "1.5", "٣", "9" * 40):
        refused = await web.client.get(f"/api/conversations/{conversation}?before={bad}")
        assert refused.status_code == 400, bad
    # two values: which one a proxy or cache in front read cannot be known
    twice = f"/api/conversations/{conversation}?before={ids[9]}&before={ids[5]}"
    refused_twice = await web.client.get(twice)
    assert (refused_twice.status_code, refused_twice.json()) == (400, {"error": "give one before"})
    before_all = await web.client.get(f"/api/conversations/{conversation}?before={ids[0]}")
    assert before_all.json() == {"conversation_id": conversation, "turns": [], "earlier": False}
    unknown = await web.client.get("/api/conversations/" + "0" * 32)
    assert unknown.status_code == 404


def share_path(web: WebHarness, turn_id: int) -> str:
    """The share page of ``turn_id``, signed as the app signs it (same secret, same store)."""
    signer = build_signer(web.services.settings)
    signer.bind_store(web.services.store)
    key = signer.turn_key(turn_id)
    assert key is not None
    return f"/turns/{key}"


async def test_an_answer_after_a_hidden_one_is_not_shared_however_far_back(
    web: WebHarness,
) -> None:
    # the share rule sees every earlier answer: one that may not be shown 230 turns back still
    # spoils what came after it (each answer had its history before it)
    store = web.services.store
    spoilt = store.new_conversation_id()
    [hidden] = seed(store, spoilt, 1, STAFF, "S")
    seed(store, spoilt, 230, passage(1))
    asked = (await web.ask("And now?", conversation_id=spoilt)).json()
    assert asked["share_url"] is None
    page = await web.client.get(share_path(web, asked["turn_id"]), headers=HTML)
    assert page.status_code == 404
    pages = await conversation_pages(web.client, spoilt)
    offered = [turn.get("share_url") for page in pages for turn in page["turns"]]
    assert offered == [None] * 232
    assert pages[-1]["turns"][0]["turn_id"] == hidden
    assert pages[-1]["turns"][0]["status"] == "hidden"
    # the same answers with nothing hidden before them are shared, and their pages open
    clean = store.new_conversation_id()
    seed(store, clean, 230, passage(1))
    fresh = (await web.ask("And now?", conversation_id=clean)).json()
    assert fresh["share_url"] is not None
    assert local(fresh["share_url"]) == share_path(web, fresh["turn_id"])
    opened = await web.client.get(local(fresh["share_url"]), headers=HTML)
    assert opened.status_code == 200


async def test_the_share_page_of_an_early_answer_sees_the_hidden_one_before_it(
    web: WebHarness,
) -> None:
    # the page judged only the conversation's last 200 turns: for an early answer that left
    # out the very answers before it
    store = web.services.store
    spoilt = store.new_conversation_id()
    seed(store, spoilt, 1, STAFF, "S")
    [after_hidden] = seed(store, spoilt, 1, passage(1))
    seed(store, spoilt, 230, passage(1))
    clean = store.new_conversation_id()
    [early] = seed(store, clean, 1, passage(1))
    seed(store, clean, 230, passage(1))
    assert (await web.client.get(share_path(web, early), headers=HTML)).status_code == 200
    assert (await web.client.get(share_path(web, after_hidden), headers=HTML)).status_code == 404


def web_turns(tmp_path: Path, **web: Any) -> tuple[WebTurns, CannedAnswerer]:
    answerer = CannedAnswerer(cited_answer(passage(1), text="Fresh answer.[^1]"))
    services, _ = build_harness(tmp_path, answerer, **web)
    return WebTurns(services, None), answerer


def ask_directly(turns: WebTurns, conversation: str) -> tuple[list[Exchange], int, bool]:
    """What one question reads: its history, and the stored turns read for it and its
    share check (payload), as the request handlers call them."""
    before = turns.conversations.reads.rows
    history = turns.history(conversation)
    start = turns.begin("Next?", conversation)
    reply = Reply(cited_answer(passage(1), text="Fresh answer.[^1]"), {"sources": []})
    shared = turns._history_shareable(start)
    turns.finish(start.turn_id, reply)
    return history, turns.conversations.reads.rows - before, shared


def test_history_is_the_last_usable_answers_however_many_are_skipped(tmp_path: Path) -> None:
    turns, _ = web_turns(tmp_path)
    store = turns.services.store
    conversation = store.new_conversation_id()
    seed(store, conversation, 8, passage(1), "P")
    # answers the model may not build on now (stored for a wider audience): never history
    seed(store, conversation, HISTORY_REACH - 10, STAFF, "S")
    history, _, shared = ask_directly(turns, conversation)
    assert history == [Exchange(f"P{n}?", f"Answer P{n}.[^1]") for n in range(2, 8)]
    assert shared is False
    store.close()


def test_history_stops_looking_after_its_reach_when_no_answer_is_usable(tmp_path: Path) -> None:
    # every answer unusable (say each cites a file made private): a question must not read the
    # whole conversation backwards for history, as each question would again
    turns, _ = web_turns(tmp_path)
    store = turns.services.store
    conversation = store.new_conversation_id()
    seed(store, conversation, 8, passage(1), "P")
    seed(store, conversation, HISTORY_REACH + 50, STAFF, "S")
    before = turns.conversations.reads.rows
    assert turns.history(conversation) == []  # the usable answers are past its reach
    assert turns.conversations.reads.rows - before == HISTORY_REACH
    store.close()


def test_a_question_reads_as_many_turns_at_250_as_at_30(tmp_path: Path) -> None:
    turns, _ = web_turns(tmp_path)
    store = turns.services.store
    reads: dict[int, int] = {}
    histories: dict[int, list[Exchange]] = {}
    for length in (30, 250):
        conversation = store.new_conversation_id()
        seed(store, conversation, length, passage(1))
        ask_directly(turns, conversation)  # the first question after a start reads it all once
        histories[length], reads[length], shared = ask_directly(turns, conversation)
        assert shared is True
    assert reads[250] == reads[30]
    # a page of history (twice history_turns) and the one turn answered since the last count
    assert reads[30] == 2 * 6 + 1
    # the same history as on a short conversation: the last six answers, oldest first
    expected = [f"Answer Q{n}.[^1]" for n in range(245, 250)] + ["Fresh answer.[^1]"]
    assert [exchange.answer for exchange in histories[250]] == expected
    store.close()


def test_an_answer_still_being_written_is_judged_once_it_is_stored(tmp_path: Path) -> None:
    # the share rule's count of earlier answers is kept between questions: it must stop at a
    # turn still pending (two questions of one conversation in flight), or that answer, once
    # stored, would never be judged
    turns, _ = web_turns(tmp_path)
    store = turns.services.store
    conversation = store.new_conversation_id()
    seed(store, conversation, 40, passage(1))
    slow = turns.begin("Slow?", conversation)
    _, _, shared = ask_directly(turns, conversation)
    assert shared is True  # the slow answer is not history yet
    staff = cited_answer(STAFF, text="Staff only.[^1]").to_json()
    store.finish_turn(slow.turn_id, staff, {"sources": []})
    _, _, shared = ask_directly(turns, conversation)
    assert shared is False
    store.close()


def test_the_counted_share_rule_agrees_with_the_page_rule_at_every_turn(tmp_path: Path) -> None:
    # the count kept between questions must give what judging every earlier answer again gives
    # (web_turn_page.shareable_answers), wherever the answer that spoils the rest falls, and
    # however a turn counted while pending or failed is answered later (a restart marks a
    # question failed that Slack or Discord answer again under the same turn)
    turns, _ = web_turns(tmp_path)
    store = turns.services.store
    public = cited_answer(passage(1), text="Public.[^1]").to_json()
    staff = cited_answer(STAFF, text="Staff.[^1]").to_json()
    kinds: dict[str, tuple[dict[str, Any] | None, dict[str, Any] | None, str]] = {
        "public": (public, {"sources": []}, "done"),
        "staff": (staff, {"sources": []}, "done"),
        "bad registry": (public, {"numbered": "not a list"}, "done"),
        "no answer": (None, None, "done"),
        "failed": (None, None, "failed"),
        "pending": (None, None, "pending"),
    }
    rng = random.Random(3)
    names = list(kinds)
    verdicts: list[bool] = []
    answered_later = 0

    def expected(conversation: str, turn_id: int) -> bool:
        every = store.channel_turns(conversation, "web", limit=1000)
        earlier = [turn for turn in every if turn.id < turn_id and turn.status == "done"]
        return len(shareable_answers(earlier, turns.audience, turns.files)) == len(earlier)

    for _ in range(12):
        conversation = store.new_conversation_id()
        weights = [40, 1, 1, 1, 3, 2]
        ids: list[int] = []
        unanswered: list[int] = []
        for _ in range(60):
            answer, registry, status = kinds[rng.choices(names, weights)[0]]
            turn_id = store.add_turn(conversation, "web", "Q?", answer, registry, status)
            ids.append(turn_id)
            if status != "done":
                unanswered.append(turn_id)
            verdict = expected(conversation, turn_id)
            assert turns.conversations.clean_before(conversation, "web", turn_id) == verdict
            verdicts.append(verdict)
            if unanswered and rng.random() < 0.2:
                # a turn already counted is answered now, publicly or from a staff source
                later = unanswered.pop(rng.randrange(len(unanswered)))
                answer, registry, _ = kinds[rng.choice(["public", "staff", "bad registry"])]
                store.finish_turn(later, answer, registry)
                answered_later += 1
                # judged again for the latest turn, and for one before it (a count past it)
                for before in (turn_id, rng.choice(ids)):
                    verdict = expected(conversation, before)
                    assert turns.conversations.clean_before(conversation, "web", before) == verdict
    assert set(verdicts) == {True, False}  # both outcomes were met
    assert answered_later > 20
    store.close()
