"""Questions taken up but not answered yet, kept in the store until they are (DESIGN §7).

Slack does not deliver an event again once it was acknowledged, and the event and its message
are claimed (``slack-event``, ``slack-message``) before they are answered: a question lost to a
crash, a kill or a shutdown that ran out of grace would never be answered, and its asker would
be left with nothing, or with a streamed message stopped half-way (``[1]`` markers and no
sources). So, as the Discord connector keeps its questions, each admitted question is also kept
in the store's outbox (channel ``slack-question``) from its claim until its handling is over
(answered, apologised for, or given up for a reason that would only repeat).

At the next start :meth:`UnansweredQuestions.left_over` hands those back, and the connector
first tidies what the earlier run left in the thread (``slack_half_answer``: a stream left
open is stopped, the replies recorded for the question are deleted) and then answers
the question again through the normal path, under the claims it already holds, so that it is
answered once. Each start counts one interrupted attempt: a question still unanswered after
``ATTEMPTS`` starts (one that takes the process down with it, say) or asked more than
``ANSWER_WITHIN`` seconds ago is given up: its half-written reply becomes ``slack.apology``
(or the apology is posted), never left as it was. A question whose answer the earlier run had
posted whole, leaving only its files to upload (kept in the outbox: ``slack_outbox_files``), is
neither tidied nor answered again: the outbox uploads the files the thread lacks.

A question answered again is one turn in the store, as the Discord connector keeps it: the
turn each question is answered under is saved with the question's channel and ts (state scope
``TURNS``), and :func:`question_turn` gives the answer after a restart the turn the earlier run
left unfinished (which ``citecast serve`` marked failed at start), so ``citecast report``
counts the question once, as answered, not failed and then done.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from slack_sdk.web.async_client import AsyncWebClient

from bot.connectors.slack_delivery import SlackPoster
from bot.connectors.slack_events import SlackQuestion
from bot.connectors.slack_half_answer import tidy_half_answer
from bot.connectors.slack_outbox_files import files_left
from bot.connectors.slack_replies import ReplyLog
from bot.errors import StoreError
from bot.store import Store

log = logging.getLogger(__name__)

QUESTIONS = "slack-question"
# answers a question gets in all, the first included
ATTEMPTS = 3
# a question older than this (by its ts) is not answered after a restart: one day
ANSWER_WITHIN = 24 * 3600.0
# the turn each question is answered under (state scope), the latest KEPT_TURNS of them
TURNS = "slack-turn"
KEPT_TURNS = 10_000
_FIELDS = {f.name: f.type for f in dataclasses.fields(SlackQuestion)}


@dataclass(frozen=True)
class LeftOver:
    """A question an earlier run left unanswered: answered again, or (``given_up``) not, its
    asker then told so with the apology."""

    question: SlackQuestion
    given_up: bool = False


def _item_id(question: SlackQuestion) -> str:
    return f"{QUESTIONS}-{question.channel}:{question.ts}"


def _question(payload: dict[str, Any]) -> SlackQuestion | None:
    """The question a kept payload describes; None when it is unreadable."""
    try:
        question = SlackQuestion(**{k: v for k, v in payload.items() if k in _FIELDS})
    except TypeError:
        return None
    texts = (question.event_id, question.channel, question.ts, question.thread_ts, question.text)
    return question if all(isinstance(value, str) for value in texts) else None


class UnansweredQuestions:
    """The questions being answered, kept in ``store`` until their handling is over."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._clock = clock

    def keep(self, question: SlackQuestion) -> None:
        """Keep ``question`` until :meth:`done`; best effort (a store failure only costs
        answering it again after a crash, so the answer is not held up by it)."""
        try:
            self._store.enqueue(QUESTIONS, dataclasses.asdict(question), _item_id(question))
        except StoreError as exc:
            log.warning("slack: could not keep question %s until answered: %s", question.ts, exc)

    def done(self, question: SlackQuestion) -> None:
        """The handling of ``question`` is over: never take it up again."""
        try:
            self._store.mark_sent(_item_id(question))
        except StoreError as exc:
            log.warning("slack: could not record question %s as handled: %s", question.ts, exc)

    def left_over(self) -> list[LeftOver]:
        """The questions an earlier run left unanswered, oldest first; each counts one
        interrupted attempt, and those over ``ATTEMPTS`` or too old come back given up."""
        try:
            items = self._store.pending(QUESTIONS)
        except StoreError as exc:
            log.error("slack: cannot read the questions left unanswered: %s", exc)
            return []
        found: list[LeftOver] = []
        for item in items:
            question = _question(item.payload)
            if question is None:
                self._count(item.id, "unreadable", 1)
                continue
            try:
                asked = float(question.ts)
            except ValueError:
                asked = self._clock()
            if self._clock() - asked > ANSWER_WITHIN:
                log.warning(
                    "slack: question %s in %s was left unanswered by a restart and is too old "
                    "to answer now; its asker gets the apology",
                    question.ts,
                    question.channel,
                )
                if self._count(item.id, "too old to answer after a restart", 1):
                    found.append(LeftOver(question, given_up=True))
                continue
            last = item.attempts + 1 >= ATTEMPTS
            if not self._count(item.id, "left unanswered by a restart", ATTEMPTS):
                found.append(LeftOver(question))
            elif last:
                log.error(
                    "slack: giving up question %s in %s: left unanswered by %d runs",
                    question.ts,
                    question.channel,
                    item.attempts + 1,
                )
                found.append(LeftOver(question, given_up=True))
        found.sort(key=lambda left: left.question.ts)
        return found

    def _count(self, item_id: str, reason: str, limit: int) -> bool:
        """Count an attempt at ``item_id`` (given up at ``limit``); whether it is over."""
        try:
            self._store.mark_failed_attempt(item_id, reason, 0.0, max_attempts=limit)
            item = self._store.outbox_item(item_id)
        except StoreError as exc:
            log.error("slack: cannot record question %s: %s", item_id, exc)
            return True  # not answered again without the count that bounds it
        return item is None or item.status != "pending"


def saved_turn(store: Store, question: SlackQuestion) -> int | None:
    """The turn an earlier run answered ``question`` under, if it saved one."""
    try:
        saved = store.state(TURNS, f"{question.channel}:{question.ts}")
    except StoreError as exc:
        log.warning("slack: cannot read the turn of question %s: %s", question.ts, exc)
        return None
    return int(saved) if saved is not None and saved.isdigit() else None


def question_turn(store: Store, question: SlackQuestion) -> int:
    """The stored turn to answer ``question`` under: the one an earlier run left unfinished
    for it (its turn not ``done``), else a new pending one, saved for a run after this one.

    Raises StoreError when no turn can be added (as ``Store.add_turn``); failing to read or
    save the question's turn only costs counting it twice after a restart.
    """
    key = f"{question.channel}:{question.ts}"
    conversation = question.conversation()
    saved = saved_turn(store, question)
    try:
        left = store.turn(saved) if saved is not None else None
    except StoreError as exc:
        log.warning("slack: cannot read the turn of question %s: %s", question.ts, exc)
        left = None
    if left is not None and left.status != "done" and left.conversation_id == conversation:
        return left.id
    turn_id = store.add_turn(conversation, "slack", question.text, status="pending")
    try:
        store.set_state(TURNS, key, str(turn_id), keep=KEPT_TURNS)
    except StoreError as exc:
        log.warning("slack: could not save the turn of question %s: %s", question.ts, exc)
    return turn_id


async def answer_left_over(
    left_over: list[LeftOver],
    client: AsyncWebClient,
    poster: SlackPoster,
    replies: ReplyLog,
    apology_text: str,
    answer: Callable[[SlackQuestion], Awaitable[None]],
    done: Callable[[SlackQuestion], None],
    posted: Callable[[SlackQuestion], bool] = lambda question: False,
    answered: Callable[[SlackQuestion], None] = lambda question: None,
) -> None:
    """Answer, one at a time, the questions an earlier run left unanswered (``answer`` keeps
    each until it is done), each thread first tidied of what that run left half-written; a
    question given up gets the apology in place of its half answer instead. A question whose
    answer was ``posted`` whole (only its files were left, and the outbox uploads them) is
    neither tidied nor answered again: it is recorded as ``answered``."""
    for left in left_over:
        question = left.question
        if posted(question):
            log.info("slack: %s in %s was answered before a restart", question.ts, question.channel)
            answered(question)
            done(question)
            continue
        apology = apology_text if left.given_up else None
        replaced = await tidy_half_answer(client, poster, replies, question, apology)
        if left.given_up:
            if not replaced:
                await poster.apologize(question.thread())
            done(question)
            continue
        log.info(
            "slack: answering %s in %s, left unanswered by a restart", question.ts, question.channel
        )
        await answer(question)


class KeptQuestions:
    """The connector's side of it: each question kept from its admission until ``answer`` (the
    connector's answering) is over, and those an earlier run left, answered at start."""

    def __init__(self, store: Store, answer: Callable[[SlackQuestion], Awaitable[None]]) -> None:
        self._store = store
        self.unanswered = UnansweredQuestions(store)
        self._replies = ReplyLog(store)
        self._answer = answer
        self._left_over: list[LeftOver] | None = None

    def read_left_over(self) -> None:
        """Read what an earlier run left (once, before any event is admitted)."""
        if self._left_over is None:
            self._left_over = self.unanswered.left_over()

    def take(self, question: SlackQuestion) -> Coroutine[Any, Any, None]:
        """Keep ``question`` now (before its event is acknowledged); the coroutine answers it."""
        self.unanswered.keep(question)
        return self._answer_kept(question)

    async def _answer_kept(self, question: SlackQuestion) -> None:
        # kept on when cut short (cancelled by a shutdown): answered again at the next start
        try:
            await self._answer(question)
        except Exception:
            self.unanswered.done(question)  # a failure that would only repeat
            raise
        self.unanswered.done(question)

    def recover(
        self,
        client: AsyncWebClient,
        poster: SlackPoster,
        apology: str,
    ) -> Coroutine[Any, Any, None] | None:
        """The work of answering what :meth:`read_left_over` found (None: nothing left)."""
        left, self._left_over = self._left_over or [], []
        if not left:
            return None
        return answer_left_over(
            left,
            client,
            poster,
            self._replies,
            apology,
            self._answer_kept,
            self.unanswered.done,
            self._posted,
            self._answered,
        )

    def _posted(self, question: SlackQuestion) -> bool:
        """Whether the earlier run posted the answer whole, leaving only its files."""
        return files_left(self._store, saved_turn(self._store, question))

    def _answered(self, question: SlackQuestion) -> None:
        """Record the turn of ``question``, whose answer the earlier run posted whole, as
        ``done`` (with whatever answer it stored): the start marked it failed, and README
        "Reliability" counts such a question once, as answered."""
        turn_id = saved_turn(self._store, question)
        try:
            turn = self._store.turn(turn_id) if turn_id is not None else None
            if turn is not None and turn.status != "done":
                self._store.finish_turn(turn.id, turn.answer, turn.registry)
        except StoreError as exc:
            log.warning("slack: cannot record question %s as answered: %s", question.ts, exc)


__all__ = [
    "ANSWER_WITHIN",
    "ATTEMPTS",
    "QUESTIONS",
    "KeptQuestions",
    "LeftOver",
    "UnansweredQuestions",
    "answer_left_over",
    "question_turn",
    "saved_turn",
]
