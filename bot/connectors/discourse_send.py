"""Sending one Discourse reply from the outbox: the body, its unique twin, and what a 422 means.

:class:`~bot.connectors.discourse_delivery.ReplyDelivery` keeps the outbox's bookkeeping; this
module sends one item's body. Before sending it checks that the reply is still wanted (its
audience, topic and question: ``discourse_prechecks``) and, on a resend, that an earlier attempt
did not land. The forum words its 422 refusals in its own language, so each is read for what a
resend can change: too short (lengthened once, ``discourse_short``), too long (split again,
``discourse_limits``), too many consecutive replies (``discourse_consecutive``), or "too
similar to what you recently posted" (sent once more with an invisible comment naming the post
it answers, unless our own earlier attempt is found in the topic).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from bot.connectors.discourse_client import DiscourseAPIError
from bot.connectors.discourse_consecutive import (
    ConsecutiveRepliesError,
    append_to_last_post,
    appended_before,
    consecutive_refusal,
)
from bot.connectors.discourse_landed import already_posted
from bot.connectors.discourse_limits import (
    PostTooLongError,
    halved,
    limit_named,
    may_be_too_long,
    minimum_named,
)
from bot.connectors.discourse_prechecks import check_reply_wanted
from bot.connectors.discourse_short import reply_lengthened
from bot.connectors.discourse_topic_state import TopicClosedError
from renderers.discourse import forum_length

if TYPE_CHECKING:
    from bot.connectors.discourse_delivery import ReplyDelivery

log = logging.getLogger(__name__)

UNIQUE_SUFFIX = "\n\n<!-- citecast: reply to post {post_id} -->"
# what a reply is split short of the forum's limit by, so that its suffixed twin fits too
SUFFIX_RESERVE = 64


async def send_reply(delivery: ReplyDelivery, payload: dict[str, Any], retrying: bool) -> None:
    """Post one reply. On a retry, first look for it in the topic: an earlier attempt may
    have landed with its response lost (or just before a crash), longer ago than the
    forum's duplicate window (``unique_posts_mins``, 5 by default, 0 on some forums) would
    catch."""
    client = delivery.client()
    topic_id = int(payload["topic_id"])
    reply_to = int(payload["reply_to_post_number"])
    written = str(payload["raw"])
    # lengthened to the forum's minimum (see discourse_short); again if a refusal names more
    minimum = delivery.minimum.effective(delivery.settings.min_post_length)
    raw = reply_lengthened(delivery.services.store, payload, written, minimum)
    audience = frozenset(payload.get("audience") or ["public"])
    part = int(payload.get("part") or 1)
    post_id = payload.get("post_id")
    question = post_id if isinstance(post_id, int) else None

    async def recheck(every_part: bool = True) -> None:
        # Later parts follow the first within moments; a resend, or a retry after a wait (a
        # 429, a 5xx), may come much later: the topic may have moved, closed or lost its
        # question meanwhile
        wanted = question if every_part or part == 1 or retrying else None
        await check_reply_wanted(
            delivery.settings,
            delivery.client,
            delivery.logged_categories,
            topic_id,
            audience,
            wanted,
        )

    await recheck(every_part=False)

    suffix = UNIQUE_SUFFIX.format(post_id=payload.get("post_id", reply_to))
    if part > 1:
        suffix = suffix.replace(" -->", f", part {part} -->")
    bodies = (raw, raw + suffix)

    async def landed() -> bool:
        # an earlier attempt may have sent the reply before it was lengthened
        sent = (*bodies, written, written + suffix)
        return await already_posted(
            delivery.client(), delivery.settings.api_username, topic_id, reply_to, sent, part
        )

    # a later part may have been added to the previous one by an edit (discourse_consecutive)
    if retrying and (await landed() or (part > 1 and await appended_before(delivery, payload))):
        log.info("discourse topic %s: reply to #%s was already posted", topic_id, reply_to)
        return
    lengthened_once = False
    index = 0
    while index < len(bodies):
        body = bodies[index]
        index += 1
        try:
            # After a failure the forum may have saved the post through (a proxy's 502, a
            # timeout), the client looks in the topic before sending it again.
            sent = await client.create_post(
                topic_id, body, reply_to, landed=landed, recheck=recheck
            )
            if not sent:
                log.info("discourse topic %s: reply to #%s was already posted", topic_id, reply_to)
            return
        except TopicClosedError:
            raise  # the recheck after a wait found it closed: no other body would do
        except DiscourseAPIError as exc:
            if exc.status == 422 and consecutive_refusal(
                exc.errors, part, delivery.settings.max_consecutive_replies
            ):
                # see discourse_consecutive: added to the previous part, or kept for later
                if part > 1 and await append_to_last_post(delivery, payload):
                    return
                raise ConsecutiveRepliesError(exc) from exc
            # The forum words its refusals in its own language: one naming a limit below
            # the body's length in Discourse's wording of it (or, in another language, by
            # its digits, unless it is a rate limit) is "too long"; any other may be "too
            # similar to what you recently posted", which the suffixed body gets past; one
            # refusing the suffixed body too may be "too long" without a number (then the
            # reply is split to half the body's length, see discourse_limits), unless it
            # plainly says something else, else it is raised.
            limited = exc.rate_limited
            if (
                exc.status == 422
                and not lengthened_once
                and (needed := minimum_named(exc.errors, forum_length(body), rate_limited=limited))
            ):
                # "Body is too short (minimum is 60 characters)": lengthened once, and sent
                delivery.minimum.learn(needed, delivery.settings.min_post_length)
                lengthened_once = True
                longer = reply_lengthened(delivery.services.store, payload, written, needed)
                if longer != raw:
                    raw = longer
                    bodies = (raw, raw + suffix)
                    index = 0
                    continue
                raise  # too short for anything honest to lengthen; a suffix cannot help
            if exc.status == 422 and (
                limit := limit_named(exc.errors, len(body), rate_limited=limited)
            ):
                raise PostTooLongError(exc, limit, named=True) from exc
            if (
                exc.status == 422
                and body != raw
                and may_be_too_long(exc.errors, rate_limited=limited)
                and (half := halved(len(raw)))
            ):
                raise PostTooLongError(exc, half, named=False) from exc
            if exc.status != 422 or body != raw or limited:
                raise  # a rate limit passes with time, not with another body
            # Either an earlier attempt landed (its response lost), or the bot posted the
            # same body elsewhere within the forum's unique_posts_mins.
            if await landed():
                log.info("discourse topic %s: reply to #%s was already posted", topic_id, reply_to)
                return
