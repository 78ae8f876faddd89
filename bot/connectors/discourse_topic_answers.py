"""The bot's replies in a Discourse topic that are no longer history for the model.

The topic's posts are its history (``discourse_topic``), the bot's replies among them. Each
reply answered a question whose turn is stored in the topic's conversation under the question
the post asked (:func:`post_question`, the one rule for what a post asks). A reply whose stored
answer cites or was written from a source the topic's readers may no longer see (a
knowledge-base file made private or dropped from the index since, a record of a table made
narrower or removed) is left out of the history, by the rule every channel's history follows
(:func:`bot.connectors.web_turn_page.visible_answer`): the post stays in the topic, but the
next answer must not repeat or build on it.

A reply is matched to its turn by the post it replies to (``reply_to_post_number``), whose
number the answer recorded with its turn when it was queued (``answer_records``): that holds
however the question was edited since, and wherever it is in the topic. A reply without a
record (posted before the record was kept) is matched by the question of the post it replies
to, else of the people's posts since the bot's previous reply; a later part of a long reply
shares its first part's verdict. A reply that cannot be matched (its question edited since or
outside the history's window, an invitation to ask) keeps its place only while every answer of
the topic's conversation is one its readers may see: else it could be the one they may not,
and is left out (history fails closed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.connectors.answer_records import answered, any_hidden
from bot.connectors.base import fit_question
from bot.connectors.discourse_webhook import strip_mention
from bot.connectors.web_turn_page import visible_answer
from bot.connectors.web_viewer_links import FileIndex
from bot.store import Turn


def post_question(raw: str, title: str, username: str, limit: int, *, new_topic: bool) -> str:
    """The question a post asks the bot (``username``): its text without the bot's mentions or
    quotes, a new topic's with the topic ``title`` first, cut to ``limit`` characters
    (``web.max_question_chars``); a post with no words of its own asks the title."""
    text = strip_mention(raw, username)
    if new_topic and title:
        text = f"{title}\n\n{text}".strip()
    return fit_question(text or title, limit)[0]


def _number(post: Mapping[str, Any]) -> int:
    value = post.get("post_number")
    return value if isinstance(value, int) else 0


def question_key(topic_id: int, post_number: int) -> str:
    """The key under which the turns answering post ``post_number`` of a topic are recorded."""
    return f"{topic_id}:{post_number}"


def unreadable_replies(
    posts: Sequence[Mapping[str, Any]],
    turns: Sequence[Turn],
    audience: frozenset[str],
    files: FileIndex | None,
    *,
    username: str,
    title: str,
    limit: int,
    recorded: Mapping[int, Sequence[int]] | None = None,
) -> frozenset[int]:
    """The post numbers of the bot's (``username``'s) replies among ``posts`` whose stored
    answer (of ``turns``, all of the topic's) ``audience`` may no longer see, a knowledge-base
    file counting as the index ``files`` has it now, and of those that cannot be matched to a
    turn while any of ``turns`` is such an answer. ``recorded`` holds the turn ids recorded for
    a question's post number; ``title`` and ``limit`` make each question as it was asked
    (:func:`post_question`) for a reply without a record."""
    by_id = {turn.id: turn for turn in turns}
    by_question: dict[str, list[Turn]] = {}
    for turn in turns:
        if turn.status == "done" and turn.answer is not None:
            by_question.setdefault(turn.question, []).append(turn)
    verdicts: dict[int, bool] = {}  # by turn id: whether ``audience`` may still see it

    def readable(turn: Turn) -> bool:
        if turn.id not in verdicts:
            verdicts[turn.id] = visible_answer(turn, audience, files) is not None
        return verdicts[turn.id]

    unmatched: list[bool] = []  # the verdict on an unmatched reply, worked out once

    def fails_closed() -> bool:
        if not unmatched:
            unmatched.append(any_hidden(turns, readable))
        return unmatched[0]

    def hides(matched: Sequence[Turn]) -> bool:
        return any(answered(turn) and not readable(turn) for turn in matched) or (
            not matched and fails_closed()
        )

    def by_text(asked: Sequence[Mapping[str, Any]]) -> list[Turn]:
        questions = {
            post_question(str(post.get("raw") or ""), title, username, limit, new_topic=first)
            for post in asked
            for first in (True, False)
        }
        return [t for question in questions for t in by_question.get(question, ())]

    ordered = sorted(posts, key=_number)
    bot = username.lower()
    people = {_number(p): p for p in ordered if str(p.get("username") or "").lower() != bot}
    records = recorded or {}
    left_out: set[int] = set()
    since: list[Mapping[str, Any]] = []  # people's posts since the bot's last reply
    hidden: bool | None = None  # the verdict on the reply before; None: no reply yet
    replied_before: object = None  # what the reply before replied to
    for post in ordered:
        number = _number(post)
        if number in people:
            since.append(post)
            continue
        reply_to = post.get("reply_to_post_number")
        ids = records.get(reply_to, ()) if isinstance(reply_to, int) else ()
        matched = [by_id[turn_id] for turn_id in ids if turn_id in by_id]
        replied = people.get(reply_to) if isinstance(reply_to, int) else None
        asked = [replied] if replied is not None else since
        later_part = not asked and hidden is not None and reply_to == replied_before
        if matched:
            hidden = hides(matched)
        elif not later_part:  # a later part of the reply before keeps its verdict
            hidden = hides(by_text(asked))
        if hidden:
            left_out.add(number)
        since, replied_before = [], reply_to
    return frozenset(left_out)
