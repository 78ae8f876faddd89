"""The forum's post length limits, learned from its refusals when they differ from the settings.

Discourse checks every reply against its site settings ``max_post_length`` (32,000 by default)
and ``min_post_length`` (20; ``StrippedLengthValidator``): a longer body is refused with 422
and ``errors: ["Body is limited to 1000 characters; you entered 3102."]`` (locale key
``errors.messages.too_long_validation``: ``count`` is the limit, ``length`` the body's length,
unstripped), a shorter one with ``["Body is too short (minimum is 60 characters)"]``
(``errors.messages.too_short``, counted without HTML comments, an ``:emoji:``, a run of dots or
of commas as one character: ``renderers.discourse.forum_length``). The site settings cannot be
read with a granular API key (``/site/settings.json`` needs an admin key), so the limits are read
from the refusals.

A 422 names other numbers too ("Sorry, new users can only put 2 links in a post.", "Sorry, you
can only mention 10 users in a post.", a plugin's "You can only post 500 times per day"), and
a rate limit names waits ("You’ve performed this action too many times. Please wait 600
seconds before trying again."; Discourse sends those with 429, ``error_type: "rate_limit"``
and ``extras.wait_seconds``). So a number counts as a length limit only when the refusal is
about the body's length:

- never in a refusal marked as a rate limit (:attr:`DiscourseAPIError.rate_limited`);
- in an English message, only the number written before "characters" in Discourse's wording
  of that limit ("is limited to N characters", "is too long (maximum is N characters)"; for
  the minimum "is too short (minimum is N characters)"); any other English message names no
  limit;
- in a message in another language (the forum's locale), whose words cannot be read, by its
  digits, which survive translation: for the maximum the smallest number at least
  :data:`MIN_LEARNED` and below the body's length (the other one is the length entered), for
  the minimum a number above the body's counted length (and no number below it) and at most
  :data:`MAX_MINIMUM`.

A refusal naming no number may still be the length (a plugin, a proxy, a translation that
writes the number in words): then the body is tried at half its length, a bounded number of
times (:data:`MAX_REFITS` per reply), and the limit is learned once such a post is accepted;
an English refusal about something else is not taken for one.

The learned limit is kept for the process (:class:`LearnedLimit`) and logged once, asking the
admin to set ``discourse.max_post_length``, so later replies are split right away; the learned
minimum likewise (``discourse_short.LearnedMinimum``), so later short replies are lengthened.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import Any

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
_NUMBER_TEXT = r"\d{1,3}(?:[,.\u00a0\u202f' ]\d{3})+(?!\d)|\d+"
_NUMBER = re.compile(_NUMBER_TEXT)
# The largest minimum taken from a refusal in a language citecast cannot read (the setting
# discourse.min_post_length goes as high): a larger number there counts something else.
MAX_MINIMUM = 1000
# Words of Discourse's English refusals that no other locale's wording shares.
_ENGLISH_WORD = re.compile(
    r"\b(?:you|your|you[’']ve|you[’']re|the|please|wait|only|can|can[’']t|cannot|times|per|"
    r"day|sorry|before|again|too|many|characters?|seconds?|minutes?|hours?|must|least|"
    r"posts?|body|title|limited|entered|maximum|minimum|links?|images?|users|mention|"
    r"quickly|reached|allowed|new|seems|unclear|sentence|contains|following|words|reply|"
    r"topic|that|this|with|what|recently|posted|similar)\b",
    re.IGNORECASE,
)
# "is limited to N characters" (too_long_validation), "is too long (maximum is N characters)"
_TOO_LONG = re.compile(
    r"\blimited to\b|\btoo long\b|\bmaximum\b|\bat most\b|\bexceed|\blonger than\b",
    re.IGNORECASE,
)
# "is too short (minimum is N characters)" (too_short), "must be at least N characters"
_TOO_SHORT = re.compile(r"\btoo short\b|\bminimum\b|\bat least\b", re.IGNORECASE)
_COUNT_OF_CHARACTERS = re.compile(rf"({_NUMBER_TEXT})\s*characters?\b", re.IGNORECASE)


def numbers_in(messages: Iterable[str]) -> list[int]:
    """The whole numbers written in ``messages``, in order."""
    found: list[int] = []
    for message in messages:
        for match in _NUMBER.finditer(message):
            number = _as_int(match.group())
            if number is not None:
                found.append(number)
    return found


def english(message: str) -> bool:
    """True when ``message`` reads as English: at least two words only English has (so
    Discourse's English wording can be told apart from the forum's own language)."""
    return len({word.lower() for word in _ENGLISH_WORD.findall(message)}) >= 2


def limit_named(
    errors: Iterable[str], body_length: int, *, rate_limited: bool = False
) -> int | None:
    """The post limit a 422 refusal of a body of ``body_length`` characters names, or None.

    "Body is limited to 1000 characters; you entered 3102." gives 1000; a refusal marked as a
    rate limit, and an English message about anything but the body's length, give None; a
    message in another language gives its smallest number at least :data:`MIN_LEARNED` and
    below the body's length.
    """
    if rate_limited:
        return None
    candidates: list[int] = []
    for message in errors:
        if english(message):
            if _too_long_wording(message):
                candidates += _character_counts(message)
        else:
            candidates += numbers_in([message])
    fitting = [n for n in candidates if MIN_LEARNED <= n < body_length]
    return min(fitting) if fitting else None


def may_be_too_long(errors: Iterable[str], *, rate_limited: bool = False) -> bool:
    """Whether a 422 refusal naming no limit may still mean "too long" (see :func:`halved`):
    not a rate limit, and not only English messages about something else."""
    if rate_limited:
        return False
    messages = [message for message in errors if message.strip()]
    return not messages or any(not english(m) or _too_long_wording(m) for m in messages)


def minimum_named(
    errors: Iterable[str], counted_length: int, *, rate_limited: bool = False
) -> int | None:
    """The shortest post a 422 refusal of a body Discourse counts as ``counted_length``
    characters asks for, or None.

    "Body is too short (minimum is 60 characters)" gives 60; a rate limit, an English message
    about anything else, and a number not above the body's length give None; a message in
    another language gives its number when every number it names is above the body's length
    (a too-long refusal names the limit below it) and at most :data:`MAX_MINIMUM`.
    """
    if rate_limited:
        return None
    candidates: list[int] = []
    for message in errors:
        numbers = numbers_in([message])
        if english(message):
            if _TOO_SHORT.search(message):
                candidates += _character_counts(message)
        elif all(n > counted_length for n in numbers):
            # a number not above the body's length is no minimum it failed: the message is
            # about something else, e.g. "limited to 400 characters; you entered 600"
            candidates += numbers
    fitting = [n for n in candidates if counted_length < n <= MAX_MINIMUM]
    return max(fitting) if fitting else None


def halved(body_length: int) -> int | None:
    """The limit to try after a refusal naming no number, or None when the body is too short
    for a shorter post to be the cure."""
    half = body_length // 2
    return half if half >= MIN_LEARNED else None


def _as_int(text: str) -> int | None:
    digits = "".join(ch for ch in text if ch.isdigit())
    try:
        return int(digits)
    except ValueError:  # a digit int() does not read (e.g. a superscript)
        return None


def _too_long_wording(message: str) -> bool:
    return bool(_TOO_LONG.search(message)) and not _TOO_SHORT.search(message)


def _character_counts(message: str) -> list[int]:
    """The numbers written just before "character(s)" in an English message."""
    found = (_as_int(match.group(1)) for match in _COUNT_OF_CHARACTERS.finditer(message))
    return [number for number in found if number is not None]


class PostTooLongError(DiscourseAPIError):
    """The forum refused a post as (probably) too long: ``limit`` is the length to split the
    reply to, ``named`` whether the forum said so (else it is a guess: half the body)."""

    def __init__(self, refusal: DiscourseAPIError, limit: int, *, named: bool) -> None:
        super().__init__(
            str(refusal),
            refusal.status,
            refusal.errors,
            error_type=refusal.error_type,
            wait_seconds=refusal.wait_seconds,
        )
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


def refits(payload: dict[str, Any]) -> int:
    """How often the reply of a stored part was split again after a refusal."""
    count = payload.get("refits")
    return count if isinstance(count, int) and not isinstance(count, bool) else 0


def part_of(payload: dict[str, Any]) -> int:
    """The part number of a stored reply (1 when absent or unreadable)."""
    part = payload.get("part")
    return part if isinstance(part, int) and not isinstance(part, bool) else 1
