"""Answering one Discourse post: topic history → assistant → post bodies → outbox → forum.

The reply is composed for the audience of the category the topic is in when it is answered
(read again when the webhook named a private category, or with the history), its bodies are put
in the store's outbox (one item per part) together with the turn, and then sent. From the
moment the reply is in the outbox its question is done: a failed send is the outbox worker's
to retry, and a reply dropped for good (refused, moved, given up) makes its turn ``failed``.
Before that, a failure is logged with the topic id, the turn is stored as ``failed`` and the
question is left for the outbox worker to answer again when the cause may pass, under the same
turn (``discourse_question_turn``: one question is one turn in ``citecast report``); so is one
whose topic or category the forum will not show because it refuses the API key itself
(revoked): answered meanwhile, it would be composed for a guessed audience. When citecast
is not set up (the model endpoint refused its key, no knowledge index) the cause will not pass:
the topic gets the short "not set up" reply instead (``setup_errors``), and the turn is
``failed``.

A post that only thanks, agrees or says goodbye is liked instead of answered, and no turn is
stored for it (``discourse_thanks``). A new topic whose answer found nothing gets no reply;
its turn is stored as answered without sources (``discourse_quiet``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from bot.connectors.answer_records import DISCOURSE_SCOPE, every_turn, recorded_turns
from bot.connectors.discourse_audience import PUBLIC, CategoryReaders
from bot.connectors.discourse_client import DiscourseClient
from bot.connectors.discourse_consecutive import ConsecutiveRepliesError
from bot.connectors.discourse_delivery import (
    CHANNEL,
    AudienceChangedError,
    QuestionGoneError,
    ReplyDelivery,
    ReplyRefusedError,
)
from bot.connectors.discourse_errors import rate_limit_wait
from bot.connectors.discourse_key import KeyRefusedError, refused_key
from bot.connectors.discourse_outbox import DiscourseOutbox, is_transient
from bot.connectors.discourse_publish import PostComposer
from bot.connectors.discourse_question_turn import question_turn
from bot.connectors.discourse_quiet import unposted_because
from bot.connectors.discourse_send import SUFFIX_RESERVE
from bot.connectors.discourse_thanks import like_post, liked_instead
from bot.connectors.discourse_topic import history_from_posts
from bot.connectors.discourse_topic_answers import (
    post_question,
    question_key,
    unreadable_replies,
)
from bot.connectors.discourse_webhook import PostEvent, Trigger, asks_nothing
from bot.connectors.outbox_turns import TURN_KEY
from bot.connectors.setup_errors import SETUP_ERRORS, not_set_up_reply, report_setup_error
from bot.connectors.web_viewer_links import IndexedFiles
from bot.errors import CitecastError, StoreError
from bot.models import Exchange
from bot.runtime import Services

log = logging.getLogger(__name__)


class PostAnswerer:
    """Answers Discourse posts with the shared assistant, one background task per post."""

    def __init__(
        self,
        services: Services,
        client: Callable[[], DiscourseClient],
        delivery: ReplyDelivery,
        outbox: DiscourseOutbox,
    ) -> None:
        self.services = services
        self.settings = services.settings.discourse
        self._client = client
        self._delivery = delivery
        self._outbox = outbox
        # the knowledge index as it is now, for which earlier replies are still history
        self._files = IndexedFiles.of(services.settings.index)

    def question_for(self, event: PostEvent, trigger: Trigger) -> str:
        """The question the post asks: the topic title and body for a new topic."""
        # as long as a question may be on the web page; the whole post stays in the topic
        limit = self.services.settings.web.max_question_chars
        return post_question(
            event.raw,
            event.topic_title,
            self.settings.api_username,
            limit,
            new_topic=trigger == "new_topic",
        )

    async def answer(
        self, event: PostEvent, trigger: Trigger, question_id: str | None = None
    ) -> None:
        """Answer ``event``; ``question_id`` is its stored question, marked done once the reply
        is in the outbox (None: nothing stored to mark)."""
        store = self.services.store
        first_item = f"discourse-{event.post_id}"
        question = self.question_for(event, trigger)
        conversation = f"discourse-topic-{event.topic_id}"
        if trigger != "new_topic" and asks_nothing(event.raw, self.settings.api_username):
            await self._invite(event, question_id)
            return
        if self.settings.like_small_talk and liked_instead(question):
            await self._like(event, question_id)
            return
        try:
            if question_id is not None and store.outbox_item(first_item) is not None:
                # Answered before a crash cut the bookkeeping short: the reply is in the outbox.
                store.mark_sent(question_id)
                return
            # answered again (after a restart, a failure that passed): the turn left before
            turn_id = question_turn(
                store, conversation, event.topic_id, event.post_number, question
            )
        except StoreError as exc:
            log.error("discourse topic %s post %s: %s", event.topic_id, event.post_id, exc)
            self._outbox.question_failed(question_id, exc, transient=True)
            return
        answered = False
        try:
            readers = CategoryReaders(self.settings, self._client, self._delivery.logged_categories)
            topic, posts = await self._read_topic(event, readers)
            audience = await self._audience(event, topic, readers)
            history = self._history(event, topic, posts, conversation, audience)
            set_up = True
            try:
                reply = await self.services.assistant.reply(question, audience, history)
            except SETUP_ERRORS as exc:
                # a refused key, no index: answered again by the outbox it fails the same way
                # (12 times, then silence), so the topic is told now, once
                report_setup_error(self.services, CHANNEL, exc)
                reply, set_up = not_set_up_reply(audience), False
            unposted = unposted_because(event, trigger, reply.answer, self.settings)
            if set_up and unposted:
                # answered all the same, without sources (as `citecast report` counts it)
                store.finish_turn(turn_id, reply.answer.to_json(), reply.registry)
                answered = True
                if question_id is not None:
                    store.mark_sent(question_id)
                log.info("discourse topic %s post %s: %s", event.topic_id, event.post_id, unposted)
                return
            composer = PostComposer(
                self._client(),
                self.services,
                audience,
                turn_id,
                # lower than configured when the forum refused a longer post before
                max_length=self._delivery.limit.value,
                refused_types=self._delivery.refused_types,
            )
            raws = await composer.compose(
                reply.answer,
                reserve=SUFFIX_RESERVE,
                max_posts=self.settings.max_consecutive_replies,
            )
            items: list[tuple[str, dict[str, Any]]] = []
            for part, raw in enumerate(raws, start=1):
                payload = {
                    "topic_id": event.topic_id,
                    "raw": raw,
                    "reply_to_post_number": event.post_number,
                    "post_id": event.post_id,
                    "part": part,
                    "audience": sorted(audience),
                    # recorded as failed if the reply is dropped (refused, moved, given up)
                    TURN_KEY: turn_id,
                }
                item_id = first_item + (f"-{part}" if part > 1 else "")
                items.append((store.enqueue(CHANNEL, payload, item_id=item_id), payload))
            if set_up:
                store.finish_turn(turn_id, reply.answer.to_json(), reply.registry)
            else:  # told, but not answered (as `citecast report` counts it)
                store.finish_turn(turn_id, None, None, status="failed")
            answered = True
            if question_id is not None:
                store.mark_sent(question_id)
            # From here a failure leaves the reply in the outbox for the worker to resend.
            for index, (item_id, payload) in enumerate(items):
                try:
                    await self._delivery.deliver(item_id, payload, retrying=False)
                except QuestionGoneError as exc:
                    # Logged by the delivery; the later parts go with the first, unread.
                    for later, _ in items[index + 1 :]:
                        store.mark_failed_attempt(later, str(exc), 0, max_attempts=1)
                    return
                except (ReplyRefusedError, AudienceChangedError):
                    # Logged, and dropped with the later parts, by the delivery.
                    return
                except (ConsecutiveRepliesError, KeyRefusedError):
                    # Logged by the delivery: the rest waits in the outbox for another reply,
                    # or for the key to be restored.
                    return
                except CitecastError as exc:
                    wait = rate_limit_wait(exc)
                    if wait is None:
                        raise
                    # Not an error: the reply is queued and the outbox worker sends it when
                    # the forum allows (and logs when it did).
                    log.warning(
                        "discourse topic %s: the forum rate-limits the bot; the reply to post %s"
                        " waits in the outbox (about %gs)",
                        event.topic_id,
                        event.post_id,
                        wait,
                    )
                    return
        except asyncio.CancelledError:
            # A stop or restart: the question stays pending and is answered at the next start,
            # under this turn, which stays failed only if it never is.
            if not answered:
                store.finish_turn(turn_id, None, None, status="failed")
            raise
        except CitecastError as exc:
            log.error("discourse topic %s post %s: %s", event.topic_id, event.post_id, exc)
            if not answered:
                store.finish_turn(turn_id, None, None, status="failed")
                self._outbox.question_failed(question_id, exc, transient=is_transient(exc))
        except Exception as exc:
            # A bug must not vanish inside a background task: log it with the topic.
            log.exception(
                "discourse topic %s post %s: unexpected error", event.topic_id, event.post_id
            )
            if not answered:
                store.finish_turn(turn_id, None, None, status="failed")
                self._outbox.question_failed(question_id, exc, transient=False)

    async def _invite(self, event: PostEvent, question_id: str | None) -> None:
        """Reply to a bare mention with ``empty_question_message`` (as Discord does): searching
        for the topic's title instead would answer a question nobody asked."""
        store = self.services.store
        item_id = f"discourse-{event.post_id}"
        message = self.settings.empty_question_message.strip()
        try:
            if message and store.outbox_item(item_id) is None:
                payload = {
                    "topic_id": event.topic_id,
                    "raw": message,
                    "reply_to_post_number": event.post_number,
                    "post_id": event.post_id,
                    "part": 1,
                    "audience": sorted(PUBLIC),
                }
                store.enqueue(CHANNEL, payload, item_id=item_id)
                if question_id is not None:
                    store.mark_sent(question_id)
                await self._delivery.deliver(item_id, payload, retrying=False)
            elif question_id is not None:
                store.mark_sent(question_id)
        except CitecastError as exc:
            # the delivery logged and kept (or dropped) the reply; the outbox resends it
            log.warning("discourse topic %s post %s: %s", event.topic_id, event.post_id, exc)

    async def _like(self, event: PostEvent, question_id: str | None) -> None:
        """Like the post instead of answering it; done once liked or refused for good, else
        left to the outbox worker to try again."""
        try:
            await like_post(self._client(), event)
            if question_id is not None:
                self.services.store.mark_sent(question_id)
        except CitecastError as exc:
            log.error("discourse topic %s post %s: %s", event.topic_id, event.post_id, exc)
            self._outbox.question_failed(question_id, exc, transient=is_transient(exc))

    async def _audience(
        self, event: PostEvent, topic: dict[str, Any] | None, readers: CategoryReaders
    ) -> frozenset[str]:
        """The audience of the category the topic is in now: a moderator may have moved it
        since the webhook (or, for a question answered again by the outbox, hours ago). A
        topic moved from a private category to a public one gets an answer with public
        sources (the reply composed for the old audience would be dropped at delivery), and a
        topic turned into a private message gets only public ones. A subcategory without a
        mapping of its own has its nearest mapped parent's audience."""
        if topic is None:
            # Unread (the forum failed): the delivery re-reads the topic before posting a
            # private reply, so the webhook's category cannot leak into a public one.
            return await readers.audience(event.category_id)
        if str(topic.get("archetype") or "regular") == "private_message":
            return PUBLIC
        category = topic.get("category_id")
        return await readers.audience(category if isinstance(category, int) else None)

    def _history(
        self,
        event: PostEvent,
        topic: dict[str, Any] | None,
        posts: list[dict[str, Any]],
        conversation: str,
        audience: frozenset[str],
    ) -> list[Exchange]:
        """The topic's earlier posts as history, less the bot's replies whose stored answer
        the topic's readers (``audience``, as the answer is computed for) may no longer see."""
        if topic is None or not posts:
            return []
        title = str(topic.get("title") or event.topic_title)
        username = self.settings.api_username
        store = self.services.store
        replied = {p.get("reply_to_post_number") for p in posts}
        recorded = {
            number: recorded_turns(store, DISCOURSE_SCOPE, question_key(event.topic_id, number))
            for number in replied
            if isinstance(number, int)
        }
        hidden = unreadable_replies(
            posts,
            every_turn(store, conversation, CHANNEL),  # however far back the posts reach
            audience,
            self._files,
            username=username,
            title=title,
            limit=self.services.settings.web.max_question_chars,
            recorded=recorded,
        )
        return history_from_posts(posts, username, event.post_number, title, hidden)

    async def _read_topic(
        self, event: PostEvent, readers: CategoryReaders
    ) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
        """The topic as it is now and its latest posts (for the history); None when it was not
        read (or could not be): a question in a public category whose history is not wanted
        costs no read, as its answer cites public sources whatever the topic's category now."""
        wants_history = self.settings.history_posts > 0 and event.post_number > 1
        try:
            if not wants_history:
                if await readers.audience(event.category_id) == PUBLIC:
                    return None, []
                return await self._client().topic(event.topic_id), []
            topic, posts = await self._client().recent_posts(
                event.topic_id, self.settings.history_posts + 1
            )
        except KeyRefusedError:
            raise  # a category read: logged by the readers
        except CitecastError as exc:
            # No reply can be posted while the forum refuses the key: the question waits for
            # it (the outbox worker answers it again) rather than being answered without its
            # topic, on a guessed audience.
            refused = await refused_key(self._client(), exc, self.settings.api_username)
            if refused is not None:
                raise refused from exc
            # The topic helps but is not essential: answer the post on its own.
            log.warning("discourse topic %s: cannot read the topic (%s)", event.topic_id, exc)
            return None, []
        return topic, posts
