"""Slack interactivity: feedback buttons, the private ``/citecast`` command and sharing.

- Feedback: *Helpful* / *Not helpful* under an answer record one vote per user and turn
  (``store.add_feedback``) and thank the voter with an ephemeral message.
- ``/citecast question`` (``slack.slash_command``) answers privately: an ephemeral message only
  the asker sees, so it may cite what *they* may read (their email-domain and user-group
  groups), with files shown as names or signed links (ephemeral messages cannot carry uploads).
  Whatever fails on the way, from the audience lookup on, ends in a private apology. It goes
  through the command's ``response_url``, which takes five messages: a longer answer is packed
  into five, its sources whole (``slack_private_fit``).
- *Share in channel* re-posts a private answer publicly only when every source it cites, and
  every source its answerer read (the turn's registry: the text can repeat a passage it read
  without citing it), is visible to the channel's audience; otherwise it refuses (ephemerally)
  and posts nothing. The rule is checked again when the button is pressed, from the stored
  turn, never from the button, and a knowledge-base file counts as the index has it then: one
  made private or dropped from the index since the answer keeps it private.
  A turn is shared once: the share is claimed before posting, so a double click posts once, and
  given back when Slack does not take the post, so the button works again (the user is told).
  Once the first message is in the channel, the rest goes through the outbox (never lost).
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
from collections.abc import Callable, Coroutine
from typing import Any

from slack_bolt.app.async_app import AsyncApp
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.webhook.async_client import AsyncWebhookClient

from bot.config import SlackSettings
from bot.connectors.base import fit_question, long_question_note
from bot.connectors.setup_errors import NOT_SET_UP_REPLY, is_setup_error, report_setup_error
from bot.connectors.slack_audience import SlackAudiences
from bot.connectors.slack_client import (
    SLACK_CALL_ERRORS,
    as_channel_error,
    error_code,
    sdk_timeout,
)
from bot.connectors.slack_delivery import SlackPoster
from bot.connectors.slack_feedback_blocks import (
    FEEDBACK_ACTION_PREFIX,
    FEEDBACK_CHOICES,
    SOURCE_ACTION_PREFIX,
    with_feedback,
)
from bot.connectors.slack_outbox import SlackOutbox
from bot.connectors.slack_private_fit import answer_page, fit_response_uses
from bot.connectors.slack_text import fit_text, question_text
from bot.connectors.slack_thread import SlackThread
from bot.connectors.web_turn_page import sources_read, visible_answer
from bot.connectors.web_viewer_links import IndexedFiles
from bot.errors import ChannelError, DeliveryUncertainError, StoreError, ValidationError
from bot.models import Answer, is_safe_url
from bot.runtime import Services

log = logging.getLogger(__name__)

FEEDBACK_SCOPE = "slack-feedback"
SHARE_SCOPE = "slack-share"
SHARE_ACTION = "citecast_share"
Render = Callable[[Answer, frozenset[str], int | None, bool], dict[str, Any]]
Spawn = Callable[[Coroutine[Any, Any, None]], None]
NOT_SHAREABLE = (
    "This answer cites sources that not everyone here may read, so it stays private to you."
)
SHARE_FAILED = (
    "Sharing failed: nothing was posted in this channel. If citecast is not a member of it,"
    " invite it first; then press *Share in channel* again."
)
SHARE_UNCERTAIN = (
    "Slack did not confirm the share. If the answer does not appear in this channel,"
    " press *Share in channel* again."
)


def share_block(turn_id: int, conversation: str) -> dict[str, Any]:
    """The *Share in channel* button of a private answer."""
    return {
        "type": "actions",
        "block_id": "citecast_share",
        "elements": [
            {
                "type": "button",
                "text": {"type": "plain_text", "text": "Share in channel"},
                "action_id": SHARE_ACTION,
                "value": json.dumps({"turn": turn_id, "conversation": conversation}),
            }
        ],
    }


def visible_to_all(answer: Answer, registry: Any, audience: frozenset[str]) -> bool:
    """True when every source ``answer`` cites or its answerer read (``registry``, the turn's
    registry JSON) may be shown to ``audience``; false when the registry cannot be read."""
    read = sources_read(registry)
    if read is None:
        return False
    cited = [citation.source for citation in answer.citations]
    return all(source.visible_to(audience) for source in [*cited, *read])


class SlackInteractions:
    """Registers the buttons and the slash command on the bolt app and handles them."""

    def __init__(
        self,
        services: Services,
        client: AsyncWebClient,
        poster: SlackPoster,
        outbox: SlackOutbox,
        audiences: SlackAudiences,
        render: Render,
        spawn: Spawn,
    ) -> None:
        self._services = services
        self._settings: SlackSettings = services.settings.slack
        self._client = client
        self._poster = poster
        self._outbox = outbox
        self._audiences = audiences
        self._render = render
        self._spawn = spawn
        # a shared answer's knowledge-base files count as the index has them when it is shared
        self._files = IndexedFiles.of(services.settings.index)

    def register(self, app: AsyncApp) -> None:
        """Attach the listeners to ``app``."""
        app.action(re.compile("^" + re.escape(FEEDBACK_ACTION_PREFIX)))(self.on_feedback)
        app.action(re.compile("^" + re.escape(SOURCE_ACTION_PREFIX)))(self.on_link)
        app.action(SHARE_ACTION)(self.on_share)
        if self._settings.slash_command:
            app.command(self._settings.slash_command)(self.on_command)

    async def on_link(self, ack: AsyncAck) -> None:
        """Record buttons open a URL; Slack still wants the click acknowledged."""
        await ack()

    async def on_feedback(
        self, ack: AsyncAck, body: dict[str, Any], action: dict[str, Any]
    ) -> None:
        """Record a helpful / not helpful vote (once per user and turn), then thank the user."""
        choice = str(action.get("action_id", ""))[len(FEEDBACK_ACTION_PREFIX) :]
        user = (body.get("user") or {}).get("id")
        value = str(action.get("value") or "")
        store = self._services.store
        if choice in FEEDBACK_CHOICES and value.isdigit():
            turn_id = int(value)
            if store.claim_once(FEEDBACK_SCOPE, f"{turn_id}:{user}"):
                store.add_feedback(turn_id, "slack", user, choice)
                self._spawn(self._tell(body, user, "Thanks for the feedback!"))
        await ack()

    async def on_command(self, ack: AsyncAck, command: dict[str, Any]) -> None:
        """``/citecast question``: answer privately in the background, ack at once."""
        limit = self._services.settings.web.max_question_chars
        question, cut = fit_question(question_text(str(command.get("text") or "")), limit)
        channel, user = command.get("channel_id"), command.get("user_id")
        if question and channel and user:
            self._spawn(self._answer_privately(question, str(channel), str(user), command))
            # the acknowledgement is shown to the asker alone, as the answer will be
            await ack(text=long_question_note(limit)) if cut else await ack()
        else:
            await ack(text=f"Ask a question: `{self._settings.slash_command} how do I …?`")

    async def _answer_privately(
        self, question: str, channel: str, user: str, command: dict[str, Any]
    ) -> None:
        store = self._services.store
        conversation = f"slack:{command.get('team_id')}:{channel}:private:{user}"
        turn_id: int | None = None
        try:
            audience = await self._audiences.for_private_view(channel, user)
            turn_id = store.add_turn(conversation, "slack", question, status="pending")
            reply = await self._services.assistant.reply(question, audience, ())
            payload = self._render(reply.answer, audience, turn_id, False)
            messages = with_feedback(payload["messages"], turn_id)
            channel_audience = await self._audiences.for_viewer(channel, None)
            if visible_to_all(reply.answer, reply.registry, channel_audience):
                last = messages[-1]
                last["blocks"] = [*last.get("blocks", []), share_block(turn_id, conversation)]
                if len(last["blocks"]) > 50:
                    last["blocks"] = last["blocks"][:-1]
            # a response_url takes five messages: a longer answer is packed into five
            messages = fit_response_uses(messages, answer_page(self._services, turn_id))
            for message in messages:
                await self._send_private(command, channel, user, message)
        except Exception as exc:
            setup = is_setup_error(exc)  # a refused key, no index: asking again cannot help
            if setup:
                report_setup_error(self._services, "slack", exc)
            else:
                # Slack's refusal, or the store's (a full disk), is the whole story; anything
                # else is a bug worth its traceback
                trace = not isinstance(exc, ChannelError | StoreError)
                log.error("private Slack answer in %s failed: %r", channel, exc, exc_info=trace)
            if turn_id is not None:
                with contextlib.suppress(StoreError):
                    store.finish_turn(turn_id, None, None, status="failed")
            text = NOT_SET_UP_REPLY if setup else self._settings.apology
            await self._say_privately(command, channel, user, text)
            return
        try:
            store.finish_turn(turn_id, reply.answer.to_json(), reply.registry)
        except StoreError as exc:
            log.error("private Slack answer %s was sent but not stored: %s", turn_id, exc)

    async def _send_private(
        self, request: dict[str, Any], channel: str, user: str, message: dict[str, Any]
    ) -> None:
        """An ephemeral message through the request's ``response_url`` (works in channels the
        bot is not in), else ``chat.postEphemeral``.

        Raises ChannelError; DeliveryUncertainError when the message may be showing already.
        """
        text = fit_text(message.get("text") or "", 3000)
        blocks = message.get("blocks") or None
        url = str(request.get("response_url") or "")
        if url.startswith(("https://", "http://")) and is_safe_url(url):
            hook = AsyncWebhookClient(
                url, timeout=sdk_timeout(self._settings.request_timeout_seconds)
            )
            try:
                response = await hook.send(
                    text=text, blocks=blocks, response_type="ephemeral", replace_original=False
                )
            except SLACK_CALL_ERRORS as exc:
                error = as_channel_error(exc, "response_url")
                if isinstance(error, DeliveryUncertainError):
                    raise error from None  # it may be showing: a second copy would repeat it
                log.info("response_url unreachable (%s); using chat.postEphemeral", error)
            else:
                if response.status_code == 200:
                    return
                log.info(
                    "response_url refused the answer (%s); using chat.postEphemeral", response.body
                )
        try:
            await self._client.chat_postEphemeral(
                channel=channel, user=user, text=text, blocks=blocks
            )
        except SLACK_CALL_ERRORS as exc:
            raise as_channel_error(exc, "chat.postEphemeral") from None

    async def for_share(self, body: dict[str, Any], action: dict[str, Any]) -> None:
        """Post the stored private answer publicly if the channel may see all it cites."""
        user = (body.get("user") or {}).get("id")
        channel = (body.get("channel") or {}).get("id")
        try:
            ref = json.loads(str(action.get("value") or ""))
            turn_id, conversation = int(ref["turn"]), str(ref["conversation"])
        except (ValueError, KeyError, TypeError):
            return
        if not channel or not user or not conversation.endswith(f":private:{user}"):
            return  # only the asker may share their own private answer
        turns = [t for t in self._services.store.turns(conversation) if t.id == turn_id]
        if not turns or turns[0].answer is None:
            return
        try:
            Answer.from_json(turns[0].answer)
        except ValidationError:
            return
        audience = await self._audiences.for_viewer(channel, None)
        # what it read counts as much as what it cites (a private answer has no history); a
        # file made private or dropped from the index since the answer counts as not visible
        answer = visible_answer(turns[0], audience, self._files)
        if answer is None:
            await self._say_privately(body, channel, user, NOT_SHAREABLE)
            return
        payload = self._render(answer, audience, turn_id, True)
        messages = with_feedback(payload["messages"], turn_id)
        shared_by = {
            "type": "context",
            "elements": [{"type": "mrkdwn", "text": f"<@{user}> shared an answer"}],
        }
        if len(messages[0].get("blocks") or []) < 50:
            messages[0]["blocks"] = [shared_by, *(messages[0].get("blocks") or [])]
        store = self._services.store
        try:
            # a turn is shared once; a share that failed is given back (release_claim)
            claimed = store.claim_once(SHARE_SCOPE, str(turn_id))
        except StoreError as exc:
            log.error("cannot record the share of turn %s: %s", turn_id, exc)
            await self._say_privately(body, channel, user, SHARE_FAILED)
            return
        if not claimed:
            return  # shared already, or another click is sharing it right now
        try:
            first = await self._poster.post_top_level(channel, messages[0])
        except ChannelError as exc:
            log.warning("sharing turn %s in %s failed: %s", turn_id, channel, exc)
            # Given back so that the button works again (after a DeliveryUncertainError the
            # user is asked to look first: Slack may have posted it).
            with contextlib.suppress(StoreError):
                store.release_claim(SHARE_SCOPE, str(turn_id))
            uncertain = isinstance(exc, DeliveryUncertainError)
            text = SHARE_UNCERTAIN if uncertain else SHARE_FAILED
            await self._say_privately(body, channel, user, text)
            return
        # The share is in the channel now: the outbox keeps the rest until Slack takes it.
        thread = SlackThread(channel, first, user)
        try:
            await self._outbox.deliver(thread, messages[1:], payload.get("files") or [])
        except ChannelError as exc:  # refused for good (UndeliverableError): nothing to queue
            log.error("the rest of shared turn %s in %s was refused: %s", turn_id, channel, exc)

    async def on_share(self, ack: AsyncAck, body: dict[str, Any], action: dict[str, Any]) -> None:
        """The *Share in channel* button."""
        self._spawn(self.for_share(body, action))
        await ack()

    async def _say_privately(
        self, request: dict[str, Any], channel: str, user: str, text: str
    ) -> None:
        try:
            await self._send_private(request, channel, user, {"text": text})
        except Exception as exc:
            log.info("private message to %s not sent: %r", user, exc)

    async def _tell(self, body: dict[str, Any], user: str | None, text: str) -> None:
        channel = (body.get("channel") or {}).get("id")
        container = body.get("container") or {}
        thread_ts = container.get("thread_ts") or (body.get("message") or {}).get("thread_ts")
        if channel and user:
            await self._post_ephemeral(channel, user, text, thread_ts)

    async def _post_ephemeral(
        self, channel: str, user: str, text: str, thread_ts: str | None = None
    ) -> None:
        try:
            await self._client.chat_postEphemeral(
                channel=channel, user=user, text=text, thread_ts=thread_ts
            )
        except SLACK_CALL_ERRORS as exc:
            log.info("ephemeral message to %s not sent: %s", user, error_code(exc))
