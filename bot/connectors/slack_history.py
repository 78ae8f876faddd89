"""Thread history: earlier questions and the bot's answers in a Slack thread, as Exchanges.

The thread is read with ``conversations.replies``. A message from a person is a question (the
bot mention removed) when it was one: in a DM every message, in a channel only one that mentions
the bot. Its answer is the bot's messages recorded for it as they were posted
(``slack_replies``), joined, wherever they stand: a second question asked before the first one's
answer arrived keeps its own answer. Bot messages recorded for no question (posted before
replies were recorded) answer the question before them. Only exchanges older than the current
question are kept, the last ``limit`` of them. Messages from other bots are skipped. A failing
read (Slack's refusal, a lost connection, a timeout) gives no history rather than no answer.

An exchange is history only while ``shown`` keeps it: the connector leaves out, with its question,
an answer whose stored turn the thread's readers may no longer see (``slack_history_answers``),
though its messages stay in the thread. The last ``limit`` exchanges kept are given.

Slack answers oldest first, in pages, so the exchanges that matter most for a follow-up, the
latest, are on the last page: every page is read, up to :data:`MAX_HISTORY_PAGES` pages of
:data:`PAGE_SIZE` messages. A thread longer than that gives no history (logged): its first pages
alone would pass off old exchanges as the latest.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from slack_sdk.web.async_client import AsyncWebClient

from bot.connectors.base import fit_question
from bot.connectors.slack_client import SLACK_CALL_ERRORS, error_code
from bot.connectors.slack_events import ANSWERED_SUBTYPES
from bot.connectors.slack_text import mentions, question_text, unescape
from bot.models import Exchange

log = logging.getLogger(__name__)

PAGE_SIZE = 200  # Slack's advice for paginated reads
MAX_HISTORY_PAGES = 10

# the ts of the bot's replies recorded for a question, by the question's ts (slack_replies)
RepliesOf = Callable[[str], Sequence[str]]
# whether the answer to a question (its ts, its text as the assistant read it) is still history
Shown = Callable[[str, str], bool]


def no_replies(question_ts: str) -> Sequence[str]:
    """No reply recorded for any question: answers are paired by their place in the thread."""
    return ()


def every_answer(question_ts: str, question: str) -> bool:
    """Every exchange is history: nothing stored judges the answers."""
    return True


def _ts(message: dict[str, Any]) -> float:
    try:
        return float(message.get("ts") or 0)
    except ValueError:
        return 0.0


def exchanges_from_messages(
    messages: list[dict[str, Any]],
    *,
    current_ts: str,
    bot_user_id: str | None,
    bot_id: str | None,
    limit: int,
    question_chars: int | None = None,
    addressed_only: bool = False,
    replies_of: RepliesOf = no_replies,
    shown: Shown = every_answer,
) -> tuple[Exchange, ...]:
    """Pair the thread's questions with the bot's answers, oldest first.

    With ``addressed_only`` (a channel) only a message that mentions the bot is a question: a
    colleague's remark was not answered, so it takes no answer. Each question's answer is the
    bot's messages ``replies_of`` names for it (recorded as they were posted), wherever they
    stand in the thread; a bot message recorded for no question (posted before replies were
    recorded) answers the question before it, as long as that one has no recorded replies.
    ``question_chars`` (``web.max_question_chars``) cuts each earlier question as it was cut
    when it was answered: Slack takes 40,000 characters, the assistant read only that many.
    The last ``limit`` exchanges that ``shown`` keeps are given, judged latest first, so a long
    thread costs only the judgements of its latest exchanges.
    """
    if limit <= 0:
        return ()
    before = float(current_ts)
    questions: dict[str, str] = {}  # by ts, in the thread's order
    answers: dict[str, list[str]] = {}
    owner: dict[str, str] = {}  # a recorded reply's ts: its question's
    with_replies: set[str] = set()  # the questions some reply was recorded for
    latest: str | None = None  # the latest question, for a reply recorded for none
    for message in sorted(messages, key=_ts):
        if _ts(message) >= before:
            break
        ts = str(message.get("ts") or "")
        text = str(message.get("text") or "")
        is_ours = (bot_id is not None and message.get("bot_id") == bot_id) or (
            bot_user_id is not None and message.get("user") == bot_user_id
        )
        if is_ours:
            question_ts = owner.get(ts)
            if question_ts is None and latest not in with_replies:
                question_ts = latest
            if question_ts is not None and question_ts in answers and text.strip():
                answers[question_ts].append(unescape(text).strip())
        elif message.get("bot_id") or message.get("subtype") not in ANSWERED_SUBTYPES:
            # joins, edits' leftovers, other bots: not questions. A question sent "also to the
            # channel" (thread_broadcast) or with a file is one, as when it was answered, or
            # its answer would be paired with the question before it.
            continue
        elif addressed_only and bot_user_id is not None and not mentions(text, bot_user_id):
            continue  # a remark to the others in the thread, never answered
        else:
            question = question_text(text, bot_user_id)
            if question_chars is not None:
                question = fit_question(question, question_chars)[0]
            questions[ts], answers[ts], latest = question, [], ts
            replies = replies_of(ts)
            owner.update((reply, ts) for reply in replies)
            if replies:
                with_replies.add(ts)
    kept: list[Exchange] = []
    for ts, question in reversed(questions.items()):
        if len(kept) == limit:
            break
        if answers[ts] and shown(ts, question):
            kept.append(Exchange(question=question, answer="\n\n".join(answers[ts])))
    return tuple(reversed(kept))


async def thread_history(
    client: AsyncWebClient,
    channel: str,
    thread_ts: str,
    *,
    current_ts: str,
    bot_user_id: str | None,
    bot_id: str | None,
    limit: int,
    question_chars: int | None = None,
    addressed_only: bool = False,
    replies_of: RepliesOf = no_replies,
    shown: Shown = every_answer,
) -> tuple[Exchange, ...]:
    """The earlier exchanges of the thread ``thread_ts`` (empty for a new thread); each
    question at most ``question_chars`` long, as when it was answered (``addressed_only``,
    ``replies_of`` and ``shown`` as :func:`exchanges_from_messages` takes them)."""
    if limit <= 0 or thread_ts == current_ts:
        return ()
    try:
        messages = await _read_thread(client, channel, thread_ts)
    except SLACK_CALL_ERRORS as exc:
        # The pages read so far are the thread's oldest part: answer without history instead.
        log.warning(
            "conversations.replies %s/%s failed (%s); answering without history",
            channel,
            thread_ts,
            error_code(exc),
        )
        return ()
    if messages is None:
        log.warning(
            "thread %s/%s has over %d messages; answering without history",
            channel,
            thread_ts,
            PAGE_SIZE * MAX_HISTORY_PAGES,
        )
        return ()
    return exchanges_from_messages(
        messages,
        current_ts=current_ts,
        bot_user_id=bot_user_id,
        bot_id=bot_id,
        limit=limit,
        question_chars=question_chars,
        addressed_only=addressed_only,
        replies_of=replies_of,
        shown=shown,
    )


async def _read_thread(
    client: AsyncWebClient, channel: str, thread_ts: str
) -> list[dict[str, Any]] | None:
    """Every message of the thread, page after page; None when it has too many.

    Raises what the client raises (:data:`SLACK_CALL_ERRORS`).
    """
    # keyed by ts: a message repeated on two pages (the thread's parent) counts once
    messages: dict[str, dict[str, Any]] = {}
    cursor: str | None = None
    for _ in range(MAX_HISTORY_PAGES):
        response = await client.conversations_replies(
            channel=channel, ts=thread_ts, limit=PAGE_SIZE, cursor=cursor
        )
        for message in response.get("messages") or []:
            if isinstance(message, dict):
                messages[str(message.get("ts"))] = message
        cursor = (response.get("response_metadata") or {}).get("next_cursor") or None
        if not cursor:
            return list(messages.values())
    return None
