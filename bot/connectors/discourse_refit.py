"""Splitting a reply again when the forum refused it as too long (see ``discourse_limits``).

The answer is stored with its turn, so it is rendered again, to fit the limit the refusal named
(or half the refused body's length when it named none), into parts that each define the
footnotes they cite: every source still arrives, compacted only as that limit forces. The new
parts go in the outbox as items of their own (``refits`` counts the rounds) before the refused
part and the parts after it are dropped, and are then sent in order by the same delivery, so a
new part refused in turn is handled the same way, at most ``MAX_REFITS`` times per reply.

A refused first part (the usual case: the renderer fills each post up to the limit) is replaced
by the new parts. A later part refused after the earlier ones were posted is replaced by the
whole answer split anew: part of it is posted twice rather than any of it lost.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from bot.connectors.discourse_delivery import CHANNEL
from bot.connectors.discourse_limits import PostTooLongError, part_of, refits
from bot.connectors.discourse_publish import PostComposer
from bot.connectors.discourse_send import SUFFIX_RESERVE
from bot.connectors.outbox_turns import TURN_KEY
from bot.errors import CitecastError, StoreError
from bot.models import Answer

if TYPE_CHECKING:
    from bot.connectors.discourse_delivery import ReplyDelivery

log = logging.getLogger(__name__)


async def refit(
    delivery: ReplyDelivery, item_id: str, payload: dict[str, Any], refused: PostTooLongError
) -> None:
    """Replace the refused outbox item ``item_id`` (and the parts after it) with the answer
    split to ``refused.limit``, and send the new parts; raises as :meth:`ReplyDelivery.deliver`
    does for a part that fails."""
    store = delivery.services.store
    configured = delivery.settings.max_post_length
    if refused.named:
        delivery.limit.learn(refused.limit, configured, named=True)
    new_ids: list[str] = []
    # The outbox worker leaves the reply alone while it is split and sent again.
    delivery.in_flight.add(item_id)
    try:
        try:
            raws = await _bodies(delivery, payload, refused.limit)
        except StoreError as exc:
            # may pass: the outbox worker sends the item again later, and it is refused again
            delivery.record_failure(item_id, payload, exc)
            raise
        except CitecastError as exc:
            raise delivery.refuse(item_id, payload, f"{refused}; not split again: {exc}") from exc
        part = part_of(payload)
        later = [
            item.id
            for item in store.pending(CHANNEL)
            if _same_reply(item.payload, payload) and part_of(item.payload) > part
        ]
        if part > 1:
            log.warning(
                "discourse topic %s: part %d of the reply to #%s was refused as too long; the"
                " whole answer is posted again in %d parts",
                payload.get("topic_id"),
                part,
                payload.get("reply_to_post_number"),
                len(raws),
            )
        round_ = refits(payload) + 1
        base = f"discourse-{payload.get('post_id', item_id)}-fit{round_}"
        items: list[tuple[str, dict[str, Any]]] = []
        for index, raw in enumerate(raws):
            new_payload = {**payload, "raw": raw, "part": part + index, "refits": round_}
            new_id = f"{base}-{index + 1}"
            new_ids.append(new_id)
            delivery.in_flight.add(new_id)
            items.append((store.enqueue(CHANNEL, new_payload, item_id=new_id), new_payload))
        # Only once the new parts are kept: a crash in between leaves both, never neither.
        reason = (
            f"refused as longer than {refused.limit} characters; split again into {len(raws)} posts"
        )
        for old in (item_id, *later):
            store.mark_failed_attempt(old, reason, 0, max_attempts=1)
        log.info(
            "discourse topic %s: the reply to #%s is split again into %d posts of at most %d"
            " characters",
            payload.get("topic_id"),
            payload.get("reply_to_post_number"),
            len(raws),
            refused.limit,
        )
        for new_id, new_payload in items:
            delivery.in_flight.discard(new_id)  # deliver() holds it while sending
            await delivery.deliver(new_id, new_payload, retrying=False)
        if not refused.named:
            # the guess was right: the forum took posts of this length
            delivery.limit.learn(refused.limit, configured, named=False)
    finally:
        delivery.in_flight.discard(item_id)
        delivery.in_flight.difference_update(new_ids)


async def _bodies(delivery: ReplyDelivery, payload: dict[str, Any], limit: int) -> list[str]:
    """The stored answer of the reply's turn rendered again for posts of ``limit`` characters."""
    turn_id = payload.get(TURN_KEY)
    turn = delivery.services.store.turn(turn_id) if isinstance(turn_id, int) else None
    if turn is None or turn.answer is None:
        raise CitecastError("its answer is no longer stored")
    answer = Answer.from_json(turn.answer)
    audience = frozenset(str(group) for group in payload.get("audience") or ["public"])
    composer = PostComposer(
        delivery.client(),
        delivery.services,
        audience,
        turn_id,
        max_length=limit,
        refused_types=delivery.refused_types,
    )
    return await composer.compose(
        answer, reserve=SUFFIX_RESERVE, max_posts=delivery.settings.max_consecutive_replies
    )


def _same_reply(one: dict[str, Any], other: dict[str, Any]) -> bool:
    return one.get("post_id") == other.get("post_id") and one.get("topic_id") == other.get(
        "topic_id"
    )
