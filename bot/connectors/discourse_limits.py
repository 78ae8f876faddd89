"""The forum's post length limit, learned from its refusals when it is lower than configured.

Discourse checks every reply against its site setting ``max_post_length`` (32,000 by default;
``StrippedLengthValidator``): a longer body is refused with 422 and ``errors: ["Body is limited
to 1000 characters; you entered 3102."]`` (locale key ``errors.messages.too_long_validation``,
whose ``count`` is the limit and ``length`` the body's length, unstripped). The site setting
cannot be read with a granular API key (``/site/settings.json`` needs an admin key), and the
message is worded in the forum's language, but its digits survive translation. So a 422 refusal
of a body longer than :data:`MIN_LEARNED` whose messages name a number at least
:data:`MIN_LEARNED` and below the body's length teaches the limit (the smallest such number: the
other one is the length entered). A refusal naming none may still be the length (a plugin, a
proxy): then the body is tried at half its length, a bounded number of times
(:data:`MAX_REFITS` per reply), and the limit is learned once such a post is accepted.

The learned limit is kept for the process (:class:`LearnedLimit`) and logged once, asking the
admin to set ``discourse.max_post_length``, so later replies are split right away.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

from bot.connectors.discourse_client import DiscourseAPIError

log = logging.getLogger(__name__)

# The smallest limit taken from a refusal: smaller numbers in a 422 count other things (links,
# mentions or images a new user may post), and a post needs room for a sentence, its footnotes
# and the unique suffix.
MIN_LEARNED = 300
# How often one reply is split again after a refusal, whatever the forum answers.
MAX_REFITS = 3
# A number as a forum writes it: digits (any script), maybe grouped by thousands ("32,000",
# "32.000", "32 000").
_NUMBER = re.compile(r"\d{1,3}(?:[,.\u00a0\u202f' ]\d{3})+(?!\d)|\d+")


def numbers_in(messages: Iterable[str]) -> list[int]:
    """The whole numbers written in ``messages``, in order."""
    found: list[int] = []
    for message in messages:
        for match in _NUMBER.finditer(message):
            digits = "".join(ch for ch in match.group() if ch.isdigit())
            try:
                found.append(int(digits))
            except ValueError:  # a digit int() does not read (e.g. a superscript)
                continue
    return found


def limit_named(errors: Iterable[str], body_length: int) -> int | None:
    """The post limit a 422 refusal of a body of ``body_length`` characters names, or None.

    The smallest number in the messages that is at least :data:`MIN_LEARNED` and below the
    body's length: "Body is limited to 1000 characters; you entered 3102." gives 1000.
    """
    candidates = [n for n in numbers_in(errors) if MIN_LEARNED <= n < body_length]
    return min(candidates) if candidates else None


def halved(body_length: int) -> int | None:
    """The limit to try after a refusal naming no number, or None when the body is too short
    for a shorter post to be the cure."""
    half = body_length // 2
    return half if half >= MIN_LEARNED else None


class PostTooLongError(DiscourseAPIError):
    """The forum refused a post as (probably) too long: ``limit`` is the length to split the
    reply to, ``named`` whether the forum said so (else it is a guess: half the body)."""

    def __init__(self, refusal: DiscourseAPIError, limit: int, *, named: bool) -> None:
        super().__init__(str(refusal), refusal.status, refusal.errors)
        self.limit = limit
        self.named = named


class LearnedLimit:
    """The forum's post limit as learned in this process (None: the configured one holds)."""

    def __init__(self) -> None:
        self.value: int | None = None

    def effective(self, configured: int) -> int:
        """The longest body to send: the configured limit, or the learned one when lower."""
        return configured if self.value is None else min(configured, self.value)

    def learn(self, limit: int, configured: int, *, named: bool) -> None:
        """Keep ``limit`` when lower than what is known; log the first time it is learned."""
        if limit >= self.effective(configured):
            return
        first = self.value is None
        self.value = limit
        if first:
            how = "said its posts are limited to" if named else "refused longer posts; using"
            log.warning(
                "discourse: the forum %s %d characters, below discourse.max_post_length (%d):"
                " replies are split to fit; set discourse.max_post_length to the forum's"
                ' "max post length" site setting',
                how,
                limit,
                configured,
            )
        else:
            log.info("discourse: replies are now split to fit %d characters", limit)
