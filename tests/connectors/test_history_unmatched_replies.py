"""A reply of the bot's that cannot be matched to its stored turn is no history while any
answer of the conversation is one its readers may not see (history fails closed).

Discourse: a reply whose question post is outside the history's window, or was edited since;
Discord: an exchange whose question was edited since. Each kept its text in the model's
history before. A reply recorded with its turn is judged by that turn, whatever its text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.connectors.discourse_topic import history_from_posts
from bot.connectors.discourse_topic_answers import unreadable_replies
from bot.models import Answer, Citation, Source
from bot.store import Store

STAFF_NOTE = Source(
    id="plan", title="Plan", url="https://intranet.example/plan", audience=("staff",)
)
ARGS: dict[str, Any] = {"username": "citecast", "title": "Plans", "limit": 4000}
PUBLIC = frozenset({"public"})


def _store(tmp_path: Path) -> Store:
    store = Store(tmp_path / "citecast.db")
    private = Answer(
        text="The plan [1].", citations=(Citation(n=1, source_number=1, source=STAFF_NOTE),)
    )
    store.add_turn("t", "discourse", "What is the plan?", private.to_json())
    return store


def bot_reply(raw: str) -> dict[str, Any]:
    """The bot's post 2, replying to post 1."""
    return {"post_number": 2, "username": "citecast", "raw": raw, "reply_to_post_number": 1}


def answers_told(store: Store, posts: list[dict[str, Any]]) -> str:
    """The answers of the topic history a public viewer's model is given."""
    hidden = unreadable_replies(posts, store.turns("t"), PUBLIC, None, **ARGS)
    history = history_from_posts(posts, "citecast", 4, "Plans", hidden)
    return "\n".join(e.answer for e in history)


def test_reply_whose_question_fell_out_of_the_history_window_is_still_hidden(
    tmp_path: Path,
) -> None:
    # recent_posts(history_posts + 1) can start at the bot's reply (a two-part reply, or two
    # posts by people in a row, shifts the window): its question post is not among ``posts``
    store = _store(tmp_path)
    try:
        posts: list[dict[str, Any]] = [
            # post 1 "@citecast What is the plan?" is outside the window
            bot_reply("The plan is SECRET-PLAN."),
            {"post_number": 3, "username": "bob", "raw": "@citecast And now?"},
        ]
        assert "SECRET-PLAN" not in answers_told(store, posts)
    finally:
        store.close()


def test_reply_to_an_edited_question_is_still_hidden(tmp_path: Path) -> None:
    # the asker fixed a typo in their question after the bot answered it
    store = _store(tmp_path)
    try:
        posts: list[dict[str, Any]] = [
            {"post_number": 1, "username": "alice", "raw": "@citecast What is the plan? (edited)"},
            bot_reply("The plan is SECRET-PLAN."),
            {"post_number": 3, "username": "bob", "raw": "@citecast And now?"},
        ]
        assert "SECRET-PLAN" not in answers_told(store, posts)
    finally:
        store.close()


def test_discord_reply_to_an_edited_question_is_still_hidden(tmp_path: Path) -> None:
    from bot.connectors.discord_history_answers import Continued
    from bot.models import Exchange

    store = _store(tmp_path)
    try:
        # the chain as the walk reads it now: the asker edited the question after the answer
        chain = (
            Exchange(question="What is the plan? (typo fixed)", answer="The plan is SECRET-PLAN."),
        )
        history = Continued("t", chain, tuple(store.turns("t"))).history_for(PUBLIC, None)
        assert "SECRET-PLAN" not in "\n".join(e.answer for e in history)
    finally:
        store.close()


def test_an_unmatched_reply_stays_while_every_answer_is_readable(tmp_path: Path) -> None:
    # nothing of the conversation is hidden from the topic's readers: history as before
    store = _store(tmp_path)
    try:
        posts: list[dict[str, Any]] = [
            bot_reply("The plan."),
            {"post_number": 3, "username": "bob", "raw": "@citecast And now?"},
        ]
        staff = frozenset({"public", "staff"})
        assert unreadable_replies(posts, store.turns("t"), staff, None, **ARGS) == frozenset()
    finally:
        store.close()


def test_a_recorded_reply_is_judged_by_its_own_turn_not_its_text(tmp_path: Path) -> None:
    # the question now reads as another, public turn's: the record says which turn it answered
    store = _store(tmp_path)
    try:
        store.add_turn("t", "discourse", "What is new?", {"text": "Nothing."})
        posts: list[dict[str, Any]] = [
            {"post_number": 1, "username": "alice", "raw": "@citecast What is new?"},
            bot_reply("The plan."),
        ]
        turns = store.turns("t")
        hidden = unreadable_replies(
            posts, turns, PUBLIC, None, **ARGS, recorded={1: (turns[0].id,)}
        )
        assert hidden == {2}
        # by the text alone, the public turn would have kept it
        assert unreadable_replies(posts, turns, PUBLIC, None, **ARGS, recorded={}) == frozenset()
    finally:
        store.close()
