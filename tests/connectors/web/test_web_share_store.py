"""Share links (``share_url``, ``GET /turns/{key}``) over the real app belong to one store: with
one file-link secret, turn 1 of another store, or of a store reset since, is the plain 404;
links a store shared before its upgrade to store ids keep opening its own answers."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import sqlite3
from pathlib import Path

from bot.connectors.render_context import context_for
from bot.filetokens import FileSigner
from bot.store_rows import SCHEMA
from renderers.base import capabilities_for
from tests.connectors.web.conftest import (
    CannedAnswerer,
    build_harness,
    cited_answer,
    make_settings,
    passage,
)

SECRET = make_settings(Path("unused")).web.file_secret  # every harness signs with this one


async def share_url_of_first_answer(folder: Path, claim: str) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    answer = cited_answer(passage(1), text=f"{claim}[^1]")
    services, client = build_harness(folder, CannedAnswerer(answer))
    async with client:
        body = (await client.post("/api/ask", json={"question": "q?"})).json()
    services.store.close()
    assert body["turn_id"] == 1
    return str(body["share_url"])


async def opened(folder: Path, url: str) -> tuple[int, str]:
    services, client = build_harness(folder, CannedAnswerer(cited_answer(passage(1))))
    async with client:
        response = await client.get(url.removeprefix("http://citecast.test"))
    services.store.close()
    return response.status_code, response.text


async def test_turn_1_of_two_stores_with_one_secret_has_two_links(tmp_path: Path) -> None:
    first = await share_url_of_first_answer(tmp_path / "a", "Store A says yes.")
    second = await share_url_of_first_answer(tmp_path / "b", "Store B says no.")
    assert first != second
    status, page = await opened(tmp_path / "a", first)
    assert status == 200 and "Store A says yes." in page
    assert (await opened(tmp_path / "b", first))[0] == 404  # never store B's turn 1


async def test_a_link_from_before_a_store_reset_is_404(tmp_path: Path) -> None:
    old = await share_url_of_first_answer(tmp_path, "Before the reset.")
    for stored in tmp_path.glob("store.db*"):
        stored.unlink()  # a new store file at the same path, the same secret
    new = await share_url_of_first_answer(tmp_path, "Someone else's answer.")
    assert new != old
    assert (await opened(tmp_path, old))[0] == 404
    assert "Someone else's answer." in (await opened(tmp_path, new))[1]


async def test_links_shared_before_the_upgrade_keep_working(tmp_path: Path) -> None:
    # a store of the release before store ids, holding one answered web turn
    answer = cited_answer(passage(1), text="Shared last week.[^1]")
    with sqlite3.connect(tmp_path / "store.db") as db:
        db.executescript(SCHEMA)
        db.execute(
            "INSERT INTO turns (conversation_id, channel, question, answer_json, created_at)"
            " VALUES (?, 'web', 'q?', ?, 0)",
            ("c" * 32, json.dumps(answer.to_json())),
        )
    db.close()
    status, page = await opened(tmp_path, f"http://citecast.test/turns/{old_form_key(1)}")
    assert status == 200 and "Shared last week." in page
    # turn 2 is made after the upgrade: the old form (anyone's, for any store) cannot open it
    later = await share_url_of_second_answer(tmp_path)
    assert (await opened(tmp_path, later))[0] == 200
    assert (await opened(tmp_path, f"http://citecast.test/turns/{old_form_key(2)}"))[0] == 404


async def share_url_of_second_answer(folder: Path) -> str:
    services, client = build_harness(folder, CannedAnswerer(cited_answer(passage(2))))
    async with client:
        body = (await client.post("/api/ask", json={"question": "again?"})).json()
    services.store.close()
    assert body["turn_id"] == 2
    return str(body["share_url"])


def old_form_key(turn_id: int) -> str:
    """The key releases before store ids gave turn ``turn_id``: its id signed for no store."""
    digest = hmac.new(SECRET.encode(), f"turn:{turn_id}".encode(), hashlib.sha256).digest()[:24]
    return f"{turn_id}-" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


async def test_other_channels_link_answers_of_the_store_the_web_serves(tmp_path: Path) -> None:
    # Slack's and Discourse's "and 3 more" links come from the signer the web channel bound
    signer = FileSigner(SECRET.encode(), "http://citecast.test", 3600)
    services, client = build_harness(tmp_path, CannedAnswerer(cited_answer(passage(1))), signer)
    slack_answer = cited_answer(passage(1), text="Answered in Slack.[^1]")
    turn = services.store.add_turn("c" * 32, "slack", "q?", slack_answer.to_json())
    context = context_for(services, frozenset({"public"}), capabilities_for("slack"), turn_id=turn)
    assert context.turn_id is not None
    async with client:
        page = await client.get(f"/turns/{context.turn_id}")
    assert page.status_code == 200 and "Answered in Slack." in page.text
