"""The bot's replies in a Discourse topic that are no longer history for the model.

The topic's posts are its history (``discourse_topic``), the bot's replies among them. Each
reply answered a question whose turn is stored in the topic's conversation under the question
the post asked (:func:`post_question`, the one rule for what a post asks). A reply whose stored
answer cites or was written from a source the topic's readers may no longer see (a
knowledge-base file made private or dropped from the index since, a record of a table made
narrower or removed) is left out of the history, by the rule every channel's history follows
(:func:`bot.connectors.web_turn_page.visible_answer`): the post stays in the topic, but the
next answer must not repeat or build on it.

A reply is matched to the post it replies to (``reply_to_post_number``), else to the people's
posts since the bot's previous reply; a later part of a long reply shares its first part's
verdict. A reply whose question has no answered turn (posted before turns were stored with this
store, its question edited since, an invitation to ask) keeps its place: nothing stored judges
it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

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


def unreadable_replies(
    posts: Sequence[Mapping[str, Any]],
    turns: Iterable[Turn],
    audience: frozenset[str],
    files: FileIndex | None,
    *,
    username: str,
    title: str,
    limit: int,
) -> frozenset[int]:
    """The post numbers of the bot's (``username``'s) replies among ``posts`` whose stored
    answer (of ``turns``, the topic's) ``audience`` may no longer see, a knowledge-base file
    counting as the index ``files`` has it now. ``title`` and ``limit`` make each question as
    it was asked (:func:`post_question`)."""
    answered: dict[str, list[Turn]] = {}
    for turn in turns:
        if turn.status == "done" and turn.answer is not None:
            answered.setdefault(turn.question, []).append(turn)
    verdicts: dict[int, bool] = {}  # by turn id: whether ``audience`` may still see it

    def readable(turn: Turn) -> bool:
        if turn.id not in verdicts:
            verdicts[turn.id] = visible_answer(turn, audience, files) is not None
        return verdicts[turn.id]

    def hides(asked: Sequence[Mapping[str, Any]]) -> bool:
        questions = {
            post_question(str(post.get("raw") or ""), title, username, limit, new_topic=first)
            for post in asked
            for first in (True, False)
        }
        return any(not readable(t) for question in questions for t in answered.get(question, ()))

    ordered = sorted(posts, key=_number)
    bot = username.lower()
    people = {_number(p): p for p in ordered if str(p.get("username") or "").lower() != bot}
    left_out: set[int] = set()
    since: list[Mapping[str, Any]] = []  # people's posts since the bot's last reply
    hidden = False
    for post in ordered:
        number = _number(post)
        if number in people:
            since.append(post)
            continue
        replied = people.get(post.get("reply_to_post_number") or 0)
        asked = [replied] if replied is not None else since
        if asked:  # else a later part of the reply before: its verdict holds
            hidden = hides(asked)
        if hidden:
            left_out.add(number)
        since = []
    return frozenset(left_out)
