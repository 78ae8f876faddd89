"""The email connector: inbound mail (SMTP listener or IMAP polling) to threaded, cited replies.

One handler (:meth:`EmailConnector.handle_message`) serves both inbound paths:

1. parse the mail and take the question from its new part (``email_parse``);
2. screen it (``email_policy``): no answer to auto-replies, bulk and list mail, bounces, our own
   address, invalid senders, domains outside the allow-list, or a sender over the rate limit;
3. answer once per Message-ID: the outbox id is derived from the Message-ID, so a duplicate
   delivery (or a crash after the enqueue) can never produce a second reply; the id is claimed
   (``store.claim_once("email-message", …)``) only after the reply is safely enqueued, and
   that claim, kept longer than a sent reply's outbox row, turns the mail away when it is
   seen again after the row was pruned;
4. ask the assistant with the audience of the sender and the history of the thread (turns are
   stored under a conversation id derived from the thread root and the sender's address; an
   earlier answer cited or read from a source the sender may no longer see, after the audience
   settings narrowed or a knowledge-base file was made private or dropped from the index since,
   is left out of it); when citecast is not set up (the model endpoint
   refused its key, no knowledge index) the reply says so instead of being retried
   (``setup_errors``);
5. render with ``renderers.render("email", …)`` (which files travel within
   ``max_attachment_bytes`` is settled first, ``email_files``; a file that does not fit gets
   a ``/files/`` link signed for ``file_link_ttl_days``, ``link_lifetime``), compose the MIME reply
   (``email_compose``), enqueue it, and let the outbox worker send it (``email_outbox``).

The question is at most ``web.max_question_chars`` long; when a mail's question was longer, only
its start is asked, and the reply says so at its top (text and HTML parts), so the sender knows
the end of the mail was not read. A mail that carries files gets a note too: attachments are
never read, and the sender should not take the answer for one about their file ("what does
this log mean?"); when the question is its subject (its body was empty, or only a greeting and
a sign-off) the note says that the subject was answered. The renderer is
given that much less HTML budget, so the reply stays within the email size limit.

A mail whose new part is empty (only quoted text) gets no reply: answering content-free mail
is how auto-reply loops start, and there is nothing to answer; the log says what the mail held
instead (``InboundMail.no_question``: "empty message", "only quoted text", …).

A mail that names the bot only in ``Cc:`` (a reply-all on a thread between people) is answered
only when it asks something and the answer cites the knowledge base (``email_copied``).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from bot.connectors.base import fit_question

# re-exported: `citecast serve` and the tests check the settings with it
from bot.connectors.email_check import check_settings as check_settings
from bot.connectors.email_compose import (
    Note,
    long_message_note,
    unread_files_note,
)
from bot.connectors.email_copied import asks_something, copied_only
from bot.connectors.email_ids import conversation_id, outbox_id, thread_key
from bot.connectors.email_imap import ImapPoller, StartPoints
from bot.connectors.email_outbox import CHANNEL, OutboxWorker, SmtpSender
from bot.connectors.email_parse import InboundMail, parse_mail
from bot.connectors.email_policy import MailPolicy
from bot.connectors.email_reply_queue import ReplyQueue
from bot.connectors.email_share import can_link, shareable_turn
from bot.connectors.email_smtp_in import InboundSmtpHandler, SmtpListener
from bot.connectors.setup_errors import SETUP_ERRORS, not_set_up_reply, report_setup_error
from bot.connectors.web_turn_page import visible_answer
from bot.connectors.web_viewer_links import IndexedFiles
from bot.models import Exchange

if TYPE_CHECKING:
    from starlette.routing import BaseRoute

    from bot.runtime import Services
    from bot.store import Store

log = logging.getLogger(__name__)

DEDUPE_SCOPE = "email-message"
# stored turns read for history beyond ``email.history_turns``: room for failed and hidden ones
HISTORY_SLACK = 50
COPIED_NO_QUESTION = "copied (Cc), and it asks nothing"
COPIED_NOTHING_FOUND = "copied (Cc), and the knowledge base has nothing on it"


@dataclass(frozen=True)
class Outcome:
    """What :meth:`EmailConnector.handle_message` did with one mail."""

    status: Literal["answered", "duplicate", "ignored"]
    reason: str = ""
    reply_id: str | None = None


class EmailConnector:
    """Answers mail sent to ``email.address``; implements ``bot.connectors.base.Connector``."""

    name = "email"

    def __init__(self, services: Services) -> None:
        check_settings(services.settings.email)
        self.services = services
        self.settings = services.settings.email
        self.policy = MailPolicy(self.settings, services.store)
        # the index as it is now decides whether an earlier answer's knowledge-base file is
        # still readable by the sender (made private or dropped since: left out of history),
        # and whether a queued reply may still be sent (email_outbox)
        self.files = IndexedFiles.of(services.settings.index)
        self.outbox = OutboxWorker(
            services.store,
            SmtpSender(self.settings.outbound),
            self.settings,
            audience_for=self.policy.audience_for,
            files=self.files,
        )
        self.replies = ReplyQueue(services, self.settings)
        self._listener: SmtpListener | None = None
        self._poller: ImapPoller | None = None
        self._inflight: set[str] = set()

    def routes(self) -> list[BaseRoute]:
        """Email has no HTTP endpoints."""
        return []

    @property
    def listen_port(self) -> int | None:
        """The SMTP listener's bound port (None when receiving by IMAP or not started)."""
        return None if self._listener is None else self._listener.port

    async def start(self) -> None:
        """Start the outbox worker (it sends what an earlier run left) and the inbound side.

        With IMAP, the mailbox is logged in to first (``ImapPoller.start``): a login the
        server refuses, a mailbox it does not have, STARTTLS it does not offer or a certificate
        that does not verify raises ConfigError naming the key, and nothing is left running.
        """
        s = self.settings
        self.outbox.start()
        if s.inbound == "smtp":
            handler = InboundSmtpHandler(
                self.handle_message,
                s.address,
                accept_any=s.accept_any_recipient,
                timeout=s.answer_timeout_seconds + 30,
            )
            domain = s.address.partition("@")[2]
            listener = SmtpListener(
                handler, s.listen_host, s.listen_port, max_bytes=s.max_message_bytes, name=domain
            )
            try:
                await listener.start()
            except BaseException:
                # a start that fails leaves nothing running: the app stops only what started
                await self.outbox.stop()
                raise
            self._listener = listener
        else:
            poller = ImapPoller(
                s.imap,
                self.handle_message,
                max_bytes=s.max_message_bytes,
                start_points=StartPoints(self.services.store),
            )
            try:
                # logs in once: a refused password stops the start (ConfigError), in one line
                await poller.start()
            except BaseException:
                await self.outbox.stop()
                poller.dispose()
                raise
            self._poller = poller

    async def stop(self) -> None:
        """Stop receiving, then stop the outbox (unsent replies stay pending in the store)."""
        if self._listener is not None:
            await self._listener.stop()
            self._listener = None
        if self._poller is not None:
            await self._poller.stop()
            self._poller = None
        await self.outbox.stop()

    async def handle_message(
        self,
        raw: bytes,
        envelope_sender: str | None = None,
        envelope_recipients: tuple[str, ...] = (),
    ) -> Outcome:
        """Answer one inbound mail (raw RFC 5322 bytes); raises only when it should be retried.

        ``envelope_recipients``: the addresses the SMTP listener accepted it for (none over
        IMAP); a mail that names one of them only in ``Cc:`` is answered only when it asks
        something the knowledge base answers (``email_copied``)."""
        mail = await asyncio.to_thread(parse_mail, raw)
        verdict = self.policy.screen(mail, envelope_sender)
        if not verdict.answer or mail.sender is None:
            log.info("email: not answering %s: %s", mail.message_id, verdict.reason)
            return Outcome("ignored", verdict.reason)
        store = self.services.store
        item_id = outbox_id(mail.message_id)
        if (
            mail.message_id in self._inflight
            or store.outbox_item(item_id) is not None
            or _claimed_before(store, mail.message_id)
        ):
            store.claim_once(DEDUPE_SCOPE, mail.message_id)
            log.info("email: not answering %s: already answered", mail.message_id)
            return Outcome("duplicate", "already answered", item_id)
        if not mail.question:
            # logged like every other mail left unanswered, so "why no reply?" has an answer
            why = mail.no_question or "no question"
            log.info("email: not answering %s: %s", mail.message_id, why)
            return Outcome("ignored", why)
        copied = copied_only(mail, self.settings.address, envelope_recipients)
        if copied and not asks_something(mail.question):
            # a reply-all between people that copies the bot: written to them, not to it
            log.info("email: not answering %s: %s", mail.message_id, COPIED_NO_QUESTION)
            return Outcome("ignored", COPIED_NO_QUESTION)
        if not self.policy.take_rate_slot(mail.sender):
            log.warning(
                "email: not answering %s: rate limit reached for %s (%d an hour)",
                mail.message_id,
                mail.sender,
                self.settings.rate_limit_per_hour,
            )
            return Outcome("ignored", "rate limited")
        self._inflight.add(mail.message_id)
        try:
            return await self._answer(mail, item_id, copied=copied)
        except BaseException:
            # Not answered: the sender's retry (SMTP 451, or the next IMAP round) must not
            # count twice against the rate limit.
            self.policy.release_rate_slot(mail.sender)
            raise
        finally:
            self._inflight.discard(mail.message_id)

    async def _answer(self, mail: InboundMail, item_id: str, *, copied: bool) -> Outcome:
        assert mail.sender is not None
        store = self.services.store
        audience = self.policy.audience_for(mail.sender)
        thread = thread_key(mail)
        conversation = conversation_id(thread, mail.sender)
        limit = self.services.settings.web.max_question_chars
        question, cut = fit_question(mail.question, limit)
        # a long mail is cut: say so, or the sender never learns its end was not read
        notes: tuple[Note, ...] = (long_message_note(limit),) if cut else ()
        if mail.files:
            # else the sender takes the answer for one about the file they sent
            notes += (unread_files_note(subject_only=mail.subject_asked),)
        set_up = True
        try:
            reply = await asyncio.wait_for(
                self.services.assistant.reply(
                    question, audience, self._history(conversation, audience)
                ),
                self.settings.answer_timeout_seconds,
            )
        except SETUP_ERRORS as exc:
            # a refused key, no index: mail it again (SMTP 451, the next IMAP round) and it
            # fails the same way, so the sender is told now instead
            report_setup_error(self.services, CHANNEL, exc)
            reply, set_up = not_set_up_reply(audience), False
        if copied and not (set_up and reply.answer.citations):
            # copied on the thread, and nothing from the knowledge base to add to it: a "not
            # found" would go to everyone on it; nothing was sent, so nothing is counted
            self.policy.release_rate_slot(mail.sender)
            log.info("email: not answering %s: %s", mail.message_id, COPIED_NOTHING_FOUND)
            return Outcome("ignored", COPIED_NOTHING_FOUND)
        stored: int | None = None
        turn_id: int | None = None
        if set_up:
            # stored first: a shortened HTML part can link the whole answer on the share page
            # (email_share), and the queued reply carries its turn, failed if the outbox drops
            # the reply; a reply that is never queued leaves it failed too
            stored = store.add_turn(
                conversation, CHANNEL, question, reply.answer.to_json(), reply.registry
            )
            if can_link(self.services):
                turn_id = shareable_turn(self.services, stored, self.files)
        try:
            await self.replies.enqueue(
                mail, reply.answer, audience, notes, thread, item_id, turn_id, stored
            )
        except BaseException:
            if stored is not None:
                store.finish_turn(stored, None, None, status="failed")
            raise
        if stored is None:  # told, but not answered (as `citecast report` counts it)
            store.add_turn(conversation, CHANNEL, question, status="failed")
        store.claim_once(DEDUPE_SCOPE, mail.message_id)
        self.outbox.wake()
        # "answered" is logged by the outbox once the reply is handed to the SMTP server
        log.info("email: reply to %s from %s queued for sending", mail.message_id, mail.sender)
        return Outcome("answered", "", item_id)

    def _history(self, conversation: str, audience: frozenset[str]) -> tuple[Exchange, ...]:
        # An answer written for a wider audience (the sender's mapping narrowed since, or a
        # knowledge-base file it cites or read made private or dropped from the index since)
        # stays out: the model would repeat or build on it for a sender who may no longer read it.
        # The latest ``email.history_turns`` exchanges still shown: a failed or hidden turn
        # does not use up the window.
        limit = self.settings.history_turns
        if limit == 0:
            return ()
        turns = self.services.store.turns(conversation, limit=limit + HISTORY_SLACK)
        shown = [
            Exchange(question=t.question, answer=str(t.answer.get("text", "")))
            for t in turns
            if t.status == "done"
            and t.answer
            and visible_answer(t, audience, self.files) is not None
        ]
        return tuple(shown[-limit:])


def _claimed_before(store: Store, message_id: str) -> bool:
    """True when ``message_id`` was answered before, though its outbox row may be gone.

    A sent reply's outbox row is pruned after ``store.retention.sent_days`` (7), its claim
    after ``claim_days`` (60): a mail marked unread again in the IMAP mailbox, or delivered
    again, in between must not be answered a second time.
    """
    return store.is_claimed(DEDUPE_SCOPE, message_id)
