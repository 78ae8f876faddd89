"""Telling a refused API key from a refused request, after a 403.

Discourse answers a wrong or revoked key, and a granular key without the scope a route needs,
with the same 403 ``invalid_access`` (``discourse_start`` meets it at start-up). A 403 to a
reply or a category read could therefore be either. The key is asked the question start-up
asks: a read of a topic that does not exist (*topics: read*, the README's smallest scope), which
a key the forum takes answers "not found" (404) and a refused key 403 again.

A refused key passes once an admin restores it: a reply held up by it stays in the outbox
(:class:`KeyRefusedError` is no permanent refusal) and is retried no sooner than
:data:`KEY_RETRY_SECONDS`, up to the attempts a rate limit gets, instead of being dropped as
a missing scope would be; and the log says the key was refused, not which scope to add.
"""

from __future__ import annotations

from bot.connectors.discourse_client import DiscourseClient
from bot.connectors.discourse_errors import DiscourseAPIError
from bot.connectors.discourse_start import NO_TOPIC
from bot.errors import ChannelError

# how long a reply held up by a refused key waits before it is tried again
KEY_RETRY_SECONDS = 300.0


class KeyRefusedError(DiscourseAPIError):
    """The forum refused the API key itself (revoked, replaced, or not ``api_username``'s):
    a refusal that passes once the key is restored, so the reply is kept and retried."""

    def __init__(self, refused: DiscourseAPIError, username: str) -> None:
        reason = "; ".join(refused.errors) or refused.error_type or "refused"
        super().__init__(
            f"the forum refused the API key for user {username!r} ({refused.status}: {reason});"
            " revoked or replaced? Check that"
            " DISCOURSE_API_KEY holds an active key (Admin → API → Keys) and that"
            " discourse.api_username is the key's user",
            refused.status,
            refused.errors,
            error_type=refused.error_type,
            wait_seconds=refused.wait_seconds,
        )

    @property
    def permanent(self) -> bool:
        """Never: a key an admin restores (or replaces in the environment) takes the reply."""
        return False


async def key_refused(client: DiscourseClient) -> bool:
    """Whether the forum refuses the key outright: True only for another 403 (or 401) to a
    read any working key may make; False when the key is taken or the forum cannot be asked."""
    try:
        await client.topic(NO_TOPIC)
    except DiscourseAPIError as exc:
        return exc.status in (401, 403) and not exc.rate_limited
    except ChannelError:
        return False  # unreachable now: nothing can be told
    return False


async def refused_key(
    client: DiscourseClient, exc: BaseException, username: str
) -> KeyRefusedError | None:
    """``exc`` as a :class:`KeyRefusedError` when it is a 401/403 and the forum refuses the key
    itself; None when ``exc`` is anything else (a missing scope, a topic the bot may not see)."""
    if isinstance(exc, KeyRefusedError):
        return exc
    if not isinstance(exc, DiscourseAPIError) or exc.status not in (401, 403) or exc.rate_limited:
        return None
    if not await key_refused(client):
        return None
    return KeyRefusedError(exc, username)
