"""Discourse's ``max_consecutive_replies``: a long answer's later parts still reach the topic.

Discourse refuses a new post when the topic's last ``max_consecutive_replies`` posts (a site
setting, 3 by default) are all the poster's and the poster may edit the last one
(``PostValidator#force_edit_last_validator``): 422 "No more than 3 consecutive replies are
allowed. Please edit your previous reply, or wait for someone to reply to you." The rule does
not apply to staff (admins, moderators), in private messages, to the user who opened the
topic, or to a moderator of the topic's category (category group moderation). So a bot that is
none of these gets the 4th part of a long answer refused, a refusal a resend of the same post
cannot change: taken as permanent, that part and every source it defines would be dropped.

Three layers keep the answer whole:

- composing (``discourse_publish``): an answer that would take more posts than
  ``discourse.max_consecutive_replies`` is rendered into larger posts, up to the forum's post
  limit, when ``capabilities.discourse.max_chars`` kept them smaller than the forum allows;
- a refused part that fits, with the forum's length limit, after the bot's last post in the
  topic (the previous part of the same answer) is appended to it by editing that post, as the
  refusal suggests; footnote definitions that post already has are not repeated;
- a refused part that does not fit stays in the outbox and is sent again later (every
  :data:`WAIT_SECONDS` at least, with the attempts a rate limit gets): once someone else
  replies in the topic the rule no longer holds, so the webhook of another user's post in the
  topic makes the part due at once (``DiscourseOutbox.someone_posted``). It is logged once,
  as a warning with the remedy (make the bot user a moderator or a category group moderator,
  or turn the site setting off); a later attempt still refused is logged at INFO.

The refusal is told from others by its wording, in the forum's locale: English
("consecutive"), or the stable words of Discourse's own translations of
``max_consecutive_replies`` (:data:`_TRANSLATED`, from config/locales/server.*.yml), whatever
``discourse.max_consecutive_replies`` says (the setting may be 0 or wrong, and the "one" forms
name no number). Words, not numbers: a refusal taken for this rule waits hours instead of
failing fast, and small numbers fill other refusals (links, mentions, a new user's replies per
topic). Only in a language not listed there is a refusal of a part past the configured number,
naming it, taken for the rule. A refusal showing the setting wrong (0, or another number than
the forum names) is logged once, as a warning.

A part added by an edit whose attempt was not marked sent (a crash, or a lost response, just
after the edit) is found in the bot's earlier post before it is sent again
(:func:`appended_before`): once someone else has replied the forum would take it as a new
post, and the topic would hold it twice.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from bot.connectors.discourse_client import DiscourseAPIError
from bot.connectors.discourse_limits import english, numbers_in
from renderers.discourse_spill import SPILL_NOTE

if TYPE_CHECKING:
    from bot.connectors.discourse_delivery import ReplyDelivery
    from bot.store_rows import OutboxItem

log = logging.getLogger(__name__)

# The least wait before a part refused by the rule is sent again: the rule lifts only when
# someone else posts in the topic, which takes minutes or hours, not seconds.
WAIT_SECONDS = 600.0
# How a part waiting under the rule is told in the outbox (the start of its last error).
WAITING = "kept until someone else replies in the topic (max consecutive replies)"
# The bot's posts in the topic looked through for a part already added to one (one page).
APPENDED_LOOKBACK = 20
_CONSECUTIVE = re.compile(r"\bconsecutive\b", re.IGNORECASE)
# The words of Discourse's translations of max_consecutive_replies (server.<locale>.yml, both
# plural forms) that no other refusal of a post uses:
#   de "Es sind keine aufeinanderfolgenden Antworten erlaubt." / "Es sind nicht mehr als
#      %{count} aufeinanderfolgende Antworten erlaubt. Bitte bearbeite stattdessen ..."
#   fr "Aucune réponse consécutive n'est autorisée." / "Seules %{count} réponses consécutives
#      sont autorisées. Veuillez modifier votre réponse précédente ..."
#   es "No se permiten respuestas consecutivas." / "No se permiten más de %{count} respuestas
#      consecutivas. Edita tu respuesta anterior ..."
#   pt_BR "Nenhuma resposta consecutiva é permitida." / "Não são permitidas mais de %{count}
#      respostas consecutivas. Edite sua resposta anterior ..."
#   ru "Допускается не более %{count} последовательного ответа / последовательных ответов."
#   ja "%{count} 回を超える連続の返信は禁止されています。前の返信を編集するか、..."
#   zh_CN "不得连续回复超过 %{count} 次。请编辑您之前的回复，..."
_TRANSLATED = re.compile(
    r"aufeinanderfolgende\w*\s+Antwort|réponses?\s+consécutives?|respuestas?\s+consecutivas?"
    r"|respostas?\s+consecutivas?|последовательн\w*\s+ответ|連続の返信|连续回复",
    re.IGNORECASE,
)
_DEFINITION = re.compile(r"^\[\^[^\]\n]+\]:[^\n]*$", re.MULTILINE)


class ConsecutiveRepliesError(DiscourseAPIError):
    """The forum refused a part under ``max_consecutive_replies`` and it could not be added to
    the bot's last post: sent again once the rule may have lifted (not a permanent refusal;
    ``wait_seconds`` makes the outbox wait and allows a rate limit's attempts)."""

    def __init__(self, refusal: DiscourseAPIError) -> None:
        super().__init__(
            f"{WAITING}: {refusal}",
            refusal.status,
            refusal.errors,
            error_type=refusal.error_type,
            wait_seconds=WAIT_SECONDS,
        )


def consecutive_refusal(errors: Iterable[str], part: int, allowed: int) -> bool:
    """Whether a 422 refusal of part ``part`` is the ``max_consecutive_replies`` rule.

    Told by Discourse's wording: in English "consecutive replies", in a locale Discourse
    translates it to, the stable words of that translation (:data:`_TRANSLATED`), whatever
    ``allowed`` (the configured ``discourse.max_consecutive_replies``, 0 = no rule) says. In
    another language, whose words cannot be read, a refusal of a part past ``allowed`` naming
    that number is taken for it. A refusal showing ``allowed`` to be wrong is logged once.
    """
    messages = list(errors)
    for message in messages:
        if (english(message) and _CONSECUTIVE.search(message)) or _TRANSLATED.search(message):
            _check_setting(message, allowed)
            return True
    return any(
        not english(message) and allowed > 1 and part > allowed and allowed in numbers_in([message])
        for message in messages
    )


class _Once:
    """Whether the warning about the setting was logged in this process."""

    def __init__(self) -> None:
        self.logged = False


_SETTING_WARNING = _Once()


def _check_setting(message: str, allowed: int) -> None:
    """Warn once when a refusal under the rule shows ``discourse.max_consecutive_replies`` is
    wrong: 0 (the forum applies the rule to the bot), or another number than the one the
    forum names (the "one" forms name none: the forum's setting is then 1)."""
    named = numbers_in([message])
    forum = named[0] if len(named) == 1 else (1 if not named else None)
    if _SETTING_WARNING.logged or (allowed > 0 and forum in (None, allowed)):
        return
    _SETTING_WARNING.logged = True
    told = f" (the forum allows {forum} in a row)" if forum is not None else ""
    log.warning(
        "discourse: the forum refused a reply under its max consecutive replies%s, but"
        " discourse.max_consecutive_replies is %d: set it to the forum's site setting so long"
        " answers are packed into fewer posts, or exempt the bot user (a moderator, or a"
        " category group moderator).",
        told,
        allowed,
    )


async def append_to_last_post(delivery: ReplyDelivery, payload: dict[str, Any]) -> bool:
    """Add the part in ``payload`` to the end of the bot's last post in the topic when that
    post is the previous part of the same answer and both fit the forum's post limit; returns
    whether the part is now in the topic (added now, or by an earlier attempt)."""
    client = delivery.client()
    settings = delivery.settings
    topic_id = int(payload["topic_id"])
    bot = settings.api_username.lower()
    _, posts = await client.recent_posts(topic_id, 1, username=settings.api_username)
    last = posts[-1] if posts else None
    if (
        last is None
        or str(last.get("username") or "").lower() != bot
        or last.get("reply_to_post_number") != payload.get("reply_to_post_number")
        or not isinstance(last.get("raw"), str)
        or not isinstance(last.get("id"), int)
    ):
        return False
    previous: str = last["raw"]
    addition = _without_repeated_definitions(str(payload["raw"]), previous)
    if addition in previous:
        return True  # an earlier attempt added it (its response lost, or a crash after)
    combined = f"{previous.rstrip()}\n\n{addition}"
    if len(combined) > delivery.limit.effective(settings.max_post_length):
        return False
    reason = "the rest of the answer: the forum allows only a few consecutive replies"
    try:
        await client.edit_post(last["id"], combined, edit_reason=reason)
    except DiscourseAPIError as exc:
        # e.g. a key without the "posts: edit" scope, or a lower limit for edits
        log.warning("discourse topic %s: cannot add to post %s: %s", topic_id, last["id"], exc)
        return False
    log.info(
        "discourse topic %s: part %s of the reply to #%s added to post %s (max consecutive"
        " replies reached)",
        topic_id,
        payload.get("part"),
        payload.get("reply_to_post_number"),
        last["id"],
    )
    return True


async def appended_before(delivery: ReplyDelivery, payload: dict[str, Any]) -> bool:
    """Whether the part in ``payload`` is already in one of the bot's replies to the same post
    in the topic (among its last :data:`APPENDED_LOOKBACK` there): added to the previous part
    by an edit that was not marked sent. Read before a later part is sent again."""
    settings = delivery.settings
    bot = settings.api_username.lower()
    _, posts = await delivery.client().recent_posts(
        int(payload["topic_id"]), APPENDED_LOOKBACK, username=settings.api_username
    )
    return any(
        str(post.get("username") or "").lower() == bot
        and post.get("reply_to_post_number") == payload.get("reply_to_post_number")
        and isinstance(post.get("raw"), str)
        # a post that is the part alone is not one it was added to: an earlier part reading
        # the same (the lost-response check, discourse_landed, finds the part posted alone)
        and _squashed(post["raw"]) != _squashed(str(payload["raw"]))
        and _holds(post["raw"], str(payload["raw"]))
        for post in posts
    )


def waiting(item: OutboxItem | None) -> bool:
    """Whether an outbox item's last attempt was refused under the rule (it waits for
    someone else to reply in its topic)."""
    return item is not None and (item.last_error or "").startswith(WAITING)


def log_waiting(payload: dict[str, Any], allowed: int, previous: OutboxItem | None) -> None:
    """Log a part kept until the rule lifts: a warning with the settings that avoid it when it
    starts waiting (``previous``: its outbox item before this attempt), INFO when it was
    waiting already (each later attempt still refused)."""
    if waiting(previous):
        log.info(
            "discourse topic %s: part %s of the reply to #%s still waits for someone else to"
            " reply (max consecutive replies)",
            payload.get("topic_id"),
            payload.get("part"),
            payload.get("reply_to_post_number"),
        )
        return
    log.warning(
        "discourse topic %s: part %s of the reply to #%s is refused by the forum's max"
        " consecutive replies (discourse.max_consecutive_replies: %d) and does not fit in the"
        " previous post; it is posted once someone else replies. Make the bot user a"
        " moderator (or a category group moderator), or set the site setting to 0.",
        payload.get("topic_id"),
        payload.get("part"),
        payload.get("reply_to_post_number"),
        allowed,
    )


def _squashed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _holds(post: str, raw: str) -> bool:
    """Whether ``post`` already holds the part ``raw`` (less the footnote definitions the post
    has anyway); never for a part that would be empty without them."""
    addition = _without_repeated_definitions(raw, post)
    return bool(addition) and addition in post


def _without_repeated_definitions(raw: str, previous: str) -> str:
    """``raw`` without the footnote definitions ``previous`` already has (the same line), nor
    the note that opens a post of sources moved out of the one before (``discourse_spill``):
    added to that post, the sources need no note saying where they belong."""
    have = set(_DEFINITION.findall(previous))
    kept = _DEFINITION.sub(lambda m: "" if m.group() in have else m.group(), raw)
    kept = kept.strip().removeprefix(SPILL_NOTE)
    return re.sub(r"\n{3,}", "\n\n", kept).strip()
