"""Slack thread history leaves out an earlier answer the thread's readers may no longer see.

The QA steps over the real connector (slack-bolt against the fake Slack) and the built-in
answerer: ingest a public file, ask about it, follow up in the thread, make the file private
(front matter ``audience:`` or an ``audience_rules`` glob, then ``citecast ingest``) or drop it
from the index, and follow up again. The bot's messages are still in the thread and its stored
answer still says ``public`` for the file, but the index as it is now decides, for the audience
the thread's answer is computed for (``SlackAudiences.for_viewer``), as for the web, email,
Discord and Discourse (``bot.connectors.web_turn_page.visible_answer``): the follow-up's
history must not carry what the file said, or the next answer could repeat it. An answer its
readers may still see stays.

The harness leaves ``index.path`` at its default, ``.citecast/index.db`` relative to the working
folder, so each test works in its own ``tmp_path``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.config import IndexSettings, Settings
from bot.connectors.slack_history import exchanges_from_messages
from bot.connectors.slack_unanswered import TURNS
from bot.knowledge import ingest
from bot.models import Exchange
from tests.connectors.slack_harness import (
    ASKER,
    DM,
    PRIVATE,
    PUBLIC,
    SlackWorld,
    direct_message,
    mention,
    slack_world,
)
from tests.connectors.web.test_web_files_made_private import (
    PUBLIC_TEXT,
    QUESTION,
    SECRET,
    ingest_private,
    kb_with_roadmap,
)
from tests.connectors.web.test_web_share_made_private import MAIL, RecordingAnswerer

FOLLOW_UP = "Who answers the help desk mail?"


def make_gone(kb: Path, index: IndexSettings, how: str) -> None:
    """Make ``kb``'s roadmap unreadable to the public: private, or dropped from the index."""
    if how in ("front matter", "audience rule"):
        ingest_private(kb, index, how)
    elif how == "unreadable":  # front matter that cannot be read: ingest drops the file
        (kb / "roadmap.md").write_text("---\ntitle: [unclosed\n---\nThe depot.\n")
        assert ingest([kb], index).skipped
    else:  # deleted and re-ingested
        (kb / "roadmap.md").unlink()
        ingest([kb], index)


def recording(index: IndexSettings) -> RecordingAnswerer:
    """The built-in answerer over ``index``, recording the history it is given."""
    return RecordingAnswerer(Assistant.from_settings(Settings(index=index)))


def roadmap_kb(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: str = ""
) -> tuple[Path, IndexSettings, RecordingAnswerer]:
    """The roadmap knowledge base (in ``folder``) ingested into the harness's index, and the
    recording answerer over it."""
    monkeypatch.chdir(tmp_path)  # the harness's index.path is relative (see above)
    kb = kb_with_roadmap(tmp_path, folder)
    index = IndexSettings()
    ingest([kb], index)
    return kb, index, recording(index)


async def ask(world: SlackWorld, channel: str, text: str, root: str | None = None) -> str:
    """The asker asks ``text`` in ``channel`` (in ``root``'s thread, or starting one; in a DM
    without a mention); returns the question's ts."""
    said = text if channel == DM else f"<@U0BOT> {text}"
    thread = {} if root is None else {"thread_ts": root}
    ts = world.fake.add_message(channel, said, ASKER, **thread)
    event = direct_message if channel == DM else mention
    await world.post_event(event(text, channel=channel, ts=ts, **thread))
    return ts


def questions(history: tuple[Exchange, ...]) -> list[str]:
    return [exchange.question for exchange in history]


async def converse(world: SlackWorld, answerer: RecordingAnswerer, channel: str) -> str:
    """The roadmap question, then a follow-up about mail in its thread; returns the thread."""
    root = await ask(world, channel, QUESTION)
    await ask(world, channel, MAIL, root)
    # while the file is public, the model has the roadmap answer as history
    assert questions(answerer.histories[-1]) == [QUESTION]
    assert "Leipzig" in answerer.histories[-1][0].answer
    return root


@pytest.mark.parametrize("how", ["front matter", "audience rule", "unreadable", "deleted"])
async def test_an_answer_citing_a_file_no_longer_public_leaves_the_threads_history(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    kb, index, answerer = roadmap_kb(
        tmp_path, monkeypatch, "plans" if how == "audience rule" else ""
    )
    async with slack_world(tmp_path, answerer) as world:
        root = await converse(world, answerer, PUBLIC)
        make_gone(kb, index, how)
        await ask(world, PUBLIC, FOLLOW_UP, root)
        # the roadmap answer is left out with its question (its messages stay in the thread);
        # the answer after it, citing only the public welcome page, is still history
        history = answerer.histories[-1]
        assert questions(history) == [MAIL]
        assert "help desk" in history[0].answer
        assert "Leipzig" not in str(history)
        assert SECRET not in str(history)
        assert any("Leipzig" in m["text"] for m in world.fake.bot_messages(PUBLIC, root))


async def test_the_history_follows_the_threads_audience_not_the_askers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kb, index, answerer = roadmap_kb(tmp_path, monkeypatch)
    async with slack_world(
        tmp_path,
        answerer,
        # the asker is on the board, and so are the private channel's readers
        audience_by_email_domain={"staff.example": ["board"]},
        audience_by_channel={PRIVATE: ["board"]},
    ) as world:
        threads = {
            channel: await converse(world, answerer, channel) for channel in (PUBLIC, PRIVATE, DM)
        }
        # the roadmap made board-only (front matter, then ingest)
        ingest_private(kb, index, "front matter")

        for channel in (PRIVATE, DM):  # its readers may still read it: the answer stays
            await ask(world, channel, FOLLOW_UP, threads[channel])
            assert questions(answerer.histories[-1]) == [QUESTION, MAIL], channel
            assert "Leipzig" in answerer.histories[-1][0].answer

        # the public channel's readers may not, though the asker may
        await ask(world, PUBLIC, FOLLOW_UP, threads[PUBLIC])
        assert questions(answerer.histories[-1]) == [MAIL]
        assert "Leipzig" not in str(answerer.histories[-1])


async def test_an_answer_whose_saved_turn_is_gone_is_found_by_its_question(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kb, index, answerer = roadmap_kb(tmp_path, monkeypatch)
    async with slack_world(tmp_path, answerer) as world:
        root = await converse(world, answerer, PUBLIC)
        # the question's saved turn pruned (the store keeps the latest KEPT_TURNS): the thread's
        # turn asked as it was is its answer all the same
        world.store.set_state(TURNS, f"{PUBLIC}:{root}", "")
        make_gone(kb, index, "front matter")
        await ask(world, PUBLIC, FOLLOW_UP, root)
        assert questions(answerer.histories[-1]) == [MAIL]
        assert "Leipzig" not in str(answerer.histories[-1])


def edit_question(world: SlackWorld, channel: str, ts: str, text: str) -> None:
    """The asker edits their question at ``ts`` in the fake Slack."""
    for message in world.fake.state.messages[channel]:
        if message["ts"] == ts:
            message["text"] = f"<@U0BOT> {text}"


@pytest.mark.parametrize("hidden", [True, False])
async def test_an_answer_matched_to_no_stored_turn_is_left_out_while_any_is_hidden(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hidden: bool
) -> None:
    # the question's saved turn pruned and its text edited since: nothing says which stored
    # answer its reply was, so while the thread holds a hidden answer it may be that one
    kb, index, answerer = roadmap_kb(tmp_path, monkeypatch)
    async with slack_world(tmp_path, answerer) as world:
        root = await converse(world, answerer, PUBLIC)
        world.store.set_state(TURNS, f"{PUBLIC}:{root}", "")
        edit_question(world, PUBLIC, root, f"{QUESTION} (edited)")
        if hidden:
            make_gone(kb, index, "front matter")
        await ask(world, PUBLIC, FOLLOW_UP, root)
        told = answerer.histories[-1]
        if hidden:
            assert questions(told) == [MAIL]
            assert "Leipzig" not in str(told)
        else:  # nothing in the thread is hidden: the unmatched exchange keeps its place
            assert questions(told) == [f"{QUESTION} (edited)", MAIL]
            assert "Leipzig" in told[0].answer


async def test_a_file_still_public_keeps_its_answer_in_the_history(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kb, index, answerer = roadmap_kb(tmp_path, monkeypatch)
    async with slack_world(tmp_path, answerer) as world:
        root = await converse(world, answerer, PUBLIC)
        # edited and ingested again, still public: nothing to hide
        (kb / "roadmap.md").write_text(f"{PUBLIC_TEXT}\nThe opening is on a Monday.\n")
        ingest([kb], index)
        await ask(world, PUBLIC, FOLLOW_UP, root)
        assert questions(answerer.histories[-1]) == [QUESTION, MAIL]
        assert "Leipzig" in answerer.histories[-1][0].answer


def test_the_history_is_the_latest_exchanges_still_shown() -> None:
    # question n at ts n.0, its answer at n.5; the answer to question 3 is left out
    messages = []
    for n in range(1, 5):
        messages.append({"ts": f"{n}.0", "user": ASKER, "text": f"<@U0BOT> question {n}"})
        messages.append({"ts": f"{n}.5", "user": "U0BOT", "bot_id": "B0BOT", "text": f"answer {n}"})
    judged: list[str] = []

    def shown(ts: str, question: str) -> bool:
        judged.append(ts)
        return question != "question 3"

    history = exchanges_from_messages(
        messages,
        current_ts="9.0",
        bot_user_id="U0BOT",
        bot_id="B0BOT",
        limit=2,
        addressed_only=True,
        shown=shown,
    )
    # two exchanges still make the history: the one left out does not take a place
    assert history == (Exchange("question 2", "answer 2"), Exchange("question 4", "answer 4"))
    # judged latest first, and no further back than the history reaches
    assert judged == ["4.0", "3.0", "2.0"]
