"""The bot's answers in a Slack thread that are no longer history for the model.

A follow-up's history is made of the thread's messages (``slack_history``), the bot's answers
among them. Each question was answered under a stored turn, saved with the question's channel
and ts (:func:`bot.connectors.slack_unanswered.saved_turn`). An answer whose stored turn cites
or was written from a source the thread's readers may no longer see (a knowledge-base file made
private or dropped from the index since, a record of a table made narrower or removed) is left
out of the history with its question, by the rule every channel's history follows
(:func:`bot.connectors.web_turn_page.visible_answer`): its messages stay in the thread, but the
next answer must not repeat or build on them. The readers are the audience the new answer is
written for (``SlackAudiences.for_viewer``): a channel's, not the asker's own groups.

A question whose saved turn is gone (the store keeps the latest ``KEPT_TURNS`` of them) is
matched by its text to the thread's stored turns, and left out when any answer stored for that
text is hidden from the readers. One matched neither way (its saved turn gone and its text
edited since, or asked before turns were stored with this store) is left out while any answer
of the thread is hidden from the readers: it may be that one (history fails closed, as
Discord's and Discourse's do, :mod:`bot.connectors.answer_records`); otherwise it keeps its
place. A failure's apology is stored as a turn without an answer, so a "try again" keeps it as
history. A store that cannot be read leaves out what it was to judge, so no answer is passed
on unjudged.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from bot.connectors.answer_records import any_hidden
from bot.connectors.slack_events import SlackQuestion
from bot.connectors.slack_history import MAX_HISTORY_PAGES, PAGE_SIZE
from bot.connectors.slack_unanswered import saved_turn
from bot.connectors.web_turn_page import visible_answer
from bot.connectors.web_viewer_links import FileIndex
from bot.errors import StoreError
from bot.store import Store, Turn

log = logging.getLogger(__name__)

# a thread read for history holds at most this many messages, so no more questions
THREAD_TURNS = PAGE_SIZE * MAX_HISTORY_PAGES


class ThreadAnswers:
    """The stored answers to the earlier questions in the thread of ``asked``, judged for
    ``audience`` (who reads the new answer), a knowledge-base file counting as the index
    ``files`` has it now."""

    def __init__(
        self,
        store: Store,
        asked: SlackQuestion,
        audience: frozenset[str],
        files: FileIndex | None,
    ) -> None:
        self._store = store
        self._asked = asked
        self._conversation = asked.conversation()
        self._audience = audience
        self._files = files
        self._turns: list[Turn] | None = None  # read when first needed
        self._by_question: dict[str, list[Turn]] | None = None
        self._hidden: bool | None = None
        self._unreadable = False  # the store failed once: judge nothing more with it

    def shown(self, question_ts: str, question: str) -> bool:
        """Whether the answer to the thread's question at ``question_ts`` (``question``, as
        the assistant read it) may still be history: no answer stored for it is hidden from
        the audience (:data:`bot.connectors.slack_history.Shown`)."""
        if self._unreadable:
            return False
        try:
            answers = self._answers(question_ts, question)
            if answers is None:  # matched to no stored turn: it may be a hidden answer
                return not self._any_hidden()
            return all(self._readable(turn) for turn in answers)
        except StoreError as exc:
            self._unreadable = True
            log.warning(
                "slack: cannot read the stored answers of thread %s (%s); its earlier "
                "answers are left out of the history",
                self._asked.thread_ts,
                exc,
            )
            return False

    def _answers(self, question_ts: str, question: str) -> list[Turn] | None:
        """The stored turns of the question at ``question_ts``; None when none matches."""
        # saved_turn looks a question up by its channel and ts: the earlier question's
        saved = saved_turn(self._store, replace(self._asked, ts=question_ts))
        turn = self._store.turn(saved) if saved is not None else None
        if turn is not None and turn.conversation_id == self._conversation:
            return [turn]
        return self._answered().get(question)

    def _thread_turns(self) -> list[Turn]:
        """The thread's stored turns (read once)."""
        if self._turns is None:
            self._turns = self._store.turns(self._conversation, limit=THREAD_TURNS)
        return self._turns

    def _any_hidden(self) -> bool:
        """Whether any of the thread's stored answers is hidden from the audience (judged
        once)."""
        if self._hidden is None:
            self._hidden = any_hidden(self._thread_turns(), self._readable)
        return self._hidden

    def _answered(self) -> dict[str, list[Turn]]:
        """The thread's stored turns by their question (made once)."""
        if self._by_question is None:
            self._by_question = {}
            for turn in self._thread_turns():
                self._by_question.setdefault(turn.question, []).append(turn)
        return self._by_question

    def _readable(self, turn: Turn) -> bool:
        if turn.answer is None:  # pending, or failed: the apology is all it posted
            return True
        return visible_answer(turn, self._audience, self._files) is not None


__all__ = ["THREAD_TURNS", "ThreadAnswers"]
