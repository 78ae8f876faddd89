"""Who the bot is, for slack-bolt, without asking Slack on every request (DESIGN §7).

slack-bolt's default authorization for one workspace calls ``auth.test`` on the first request
it sees, and on every one after until a call succeeds: while Slack's API cannot be reached, each
incoming event then waits for a timeout, gets a 500 and logs a long traceback, and Slack
delivers it again later. Events must be acknowledged at once and answered when Slack can be
reached (the outbox retries). The bot token is checked with ``auth.test`` once at start
(:mod:`bot.connectors.slack_token`); :class:`KnownIdentity` is given what that check learned
and hands bolt an ``AuthorizeResult`` built from it and the configured token, with no call.
Until the ids are known, the first request asks ``auth.test`` itself, as bolt did, once: when
that fails the request still goes on, without the ids, instead of failing, and the later ones do
not wait for Slack again (start-up's background check of the token learns the ids).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from slack_bolt.authorization import AuthorizeResult
from slack_sdk.web.async_client import AsyncWebClient

from bot.connectors.slack_client import SLACK_CALL_ERRORS, error_code
from bot.connectors.slack_token import identity_of

log = logging.getLogger(__name__)


@dataclass
class KnownIdentity:
    """The bot's token and, once learned at start, its user and bot ids."""

    bot_token: str
    client: AsyncWebClient
    # told what a request's own auth.test learned (the connector's start-up check is told too)
    learned: Callable[[dict[str, Any]], None]
    bot_user_id: str | None = None
    bot_id: str | None = None
    _asked: bool = field(default=False, init=False)  # whether a request asked auth.test

    def authorize_function(
        self,
    ) -> Callable[[str | None, str | None, str | None], Awaitable[AuthorizeResult]]:
        """bolt's ``authorize`` function: the configured token and the ids learned at start.

        A plain function: bolt passes its arguments by the names it reads from the signature,
        and would take a bound method's ``self`` for one of them."""

        async def authorize(
            enterprise_id: str | None, team_id: str | None, user_id: str | None
        ) -> AuthorizeResult:
            if self.bot_user_id is None and self.bot_id is None and not self._asked:
                self._asked = True
                await self._learn()
            return AuthorizeResult(
                enterprise_id=enterprise_id,
                team_id=team_id,
                user_id=user_id,
                bot_token=self.bot_token,
                bot_user_id=self.bot_user_id,
                bot_id=self.bot_id,
            )

        return authorize

    async def _learn(self) -> None:
        """Ask ``auth.test`` for the ids; a failure costs only the ids (logged at DEBUG: the
        start-up check and its background retries say what is wrong)."""
        try:
            response = await self.client.auth_test()
        except SLACK_CALL_ERRORS as exc:
            log.debug("auth.test for an incoming request failed: %s", error_code(exc))
            return
        self.learned(identity_of(response))
