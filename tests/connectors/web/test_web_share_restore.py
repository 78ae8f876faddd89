"""A share link names one answer for good: after the store is restored from an older backup, the
turn ids given since the backup are given again, to later answers, and a link made before the
restore must not open the answer that got its turn's id (bot/filetokens.py, ``turn_key``;
bot/store_identity.py, ``turn_stamp``). Links from before an upgrade keep opening their answers
where the store can tell them apart from later ones (``unstamped_share_upto``)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import shutil
import sqlite3
from pathlib import Path

from bot.models import Answer
from tests.connectors.web.conftest import CannedAnswerer, build_harness, cited_answer, passage

BROWSER = {"accept": "text/html"}
SECRET = b"test-secret-0123456789abcdef"  # make_settings' web.file_secret


async def answer_once(tmp_path: Path, answer: Answer, question: str) -> tuple[int, str]:
    """One run of the server on the store in ``tmp_path``: ask, return the turn id and the
    path of the answer's share link (the store is closed after, as a stopped server's is)."""
    services, client = build_harness(tmp_path, CannedAnswerer(answer))
    async with client:
        body = (await client.post("/api/ask", json={"question": question})).json()
    services.store.close()
    share_url = body["share_url"]
    assert isinstance(share_url, str)
    return int(body["turn_id"]), share_url.removeprefix("http://citecast.test")


async def fetch(
    tmp_path: Path, path: str, headers: dict[str, str] | None = None
) -> tuple[int, str]:
    services, client = build_harness(tmp_path, CannedAnswerer(Answer(text="unused")))
    async with client:
        response = await client.get(path, headers=headers or {})
    services.store.close()
    return response.status_code, response.text


def back_up(tmp_path: Path) -> Path:
    copy = tmp_path / "backup"
    copy.mkdir()
    for part in tmp_path.glob("store.db*"):
        shutil.copy2(part, copy / part.name)
    return copy


def restore(tmp_path: Path, copy: Path) -> None:
    for part in tmp_path.glob("store.db*"):
        part.unlink()
    for part in copy.iterdir():
        shutil.copy2(part, tmp_path / part.name)


def answer(word: str) -> Answer:
    return cited_answer(passage(1), text=f"The {word} answer.[^1]")


async def test_a_link_from_before_a_restore_does_not_open_the_answer_that_got_its_id(
    tmp_path: Path,
) -> None:
    first_id, first_link = await answer_once(tmp_path, answer("first"), "one?")
    backup = back_up(tmp_path)
    lost_id, lost_link = await answer_once(tmp_path, answer("lost"), "two?")
    assert "The lost answer." in (await fetch(tmp_path, lost_link))[1]

    restore(tmp_path, backup)  # the operator goes back to the copy: the lost answer is gone
    later_id, later_link = await answer_once(tmp_path, answer("later"), "three?")
    assert later_id == lost_id  # the restored store gives the id out again

    status, text = await fetch(tmp_path, lost_link)
    assert status == 404 and "later" not in text
    assert text == '{"error":"not found"}'  # the same 404 as any link that shows nothing
    status, page = await fetch(tmp_path, lost_link, BROWSER)
    assert status == 404 and "Answer not found" in page and "later" not in page
    # the new answer's own link opens it, and the answer the backup kept keeps its link
    assert later_link != lost_link
    assert "The later answer." in (await fetch(tmp_path, later_link))[1]
    assert first_id < lost_id and "The first answer." in (await fetch(tmp_path, first_link))[1]


def unstamped_link(store_path: Path, turn_id: int) -> str:
    """A share link as the release before stamps made it: the turn id signed for the store."""
    with sqlite3.connect(store_path) as db:
        [store_id] = db.execute(
            "SELECT value FROM state WHERE scope = 'citecast.store' AND key = 'id'"
        ).fetchone()
    db.close()
    message = f"turn:{store_id}:{turn_id}".encode()
    digest = hmac.new(SECRET, message, hashlib.sha256).digest()[:24]
    return f"/turns/{turn_id}-" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def as_before_stamps(store_path: Path) -> None:
    """The store as the release before stamps left it: its id, and no unstamped_share_upto."""
    with sqlite3.connect(store_path) as db:
        db.execute(
            "DELETE FROM state WHERE scope = 'citecast.store' AND key = 'unstamped_share_upto'"
        )
    db.close()


async def test_links_given_before_the_upgrade_open_the_turns_the_store_had_then(
    tmp_path: Path,
) -> None:
    kept_id, _ = await answer_once(tmp_path, answer("kept"), "one?")
    store_path = tmp_path / "store.db"
    as_before_stamps(store_path)
    old_link = unstamped_link(store_path, kept_id)
    # the upgraded server opens the store, which then knows which turns such links may open
    assert "The kept answer." in (await fetch(tmp_path, old_link))[1]
    later_id, later_link = await answer_once(tmp_path, answer("later"), "two?")
    assert later_link != unstamped_link(store_path, later_id)  # new links are stamped
    status, text = await fetch(tmp_path, unstamped_link(store_path, later_id))
    assert status == 404 and "later" not in text
