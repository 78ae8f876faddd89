"""The ``slack`` settings checked at start: every missing credential, and tokens in the wrong key.

All problems are reported together, in one line, so that a new setup is fixed in one go instead
of one key per run. A token of the wrong kind is named with where it belongs: Slack would only
answer ``not_allowed_token_type`` (or the Socket Mode client would retry it forever).
"""

from __future__ import annotations

from bot.config import SlackSettings
from bot.config_env import empty_setting
from bot.errors import ConfigError

XAPP_IN_BOT_KEY = (
    "slack.bot_token: this is an app-level token (xapp-…), not the bot token; put the Bot User "
    "OAuth Token (xoxb-…, OAuth & Permissions) in SLACK_BOT_TOKEN, and the xapp- token in "
    "slack.app_token (${SLACK_APP_TOKEN}) for Socket Mode"
)
XOXB_IN_APP_KEY = (
    "slack.app_token: this is a bot token (xoxb-…), not an app-level token; create one with "
    "the connections:write scope (Basic Information → App-Level Tokens) and put it in "
    "SLACK_APP_TOKEN (the xoxb- token goes in slack.bot_token)"
)


def check_settings(settings: SlackSettings) -> None:
    """Fail at start with one ConfigError naming every key the chosen mode lacks or has wrong.

    Problems are joined with ``; `` in one line; a single problem reads as it always did.
    """
    problems: list[str] = []
    if not settings.bot_token:
        problems.append(
            str(empty_setting("slack.bot_token", settings, " (set it to ${SLACK_BOT_TOKEN})"))
        )
    elif settings.bot_token.startswith("xapp-"):
        problems.append(XAPP_IN_BOT_KEY)
    if settings.mode == "http" and not settings.signing_secret:
        problems.append(
            str(
                empty_setting(
                    "slack.signing_secret",
                    settings,
                    " (${SLACK_SIGNING_SECRET})",
                    problem="required in HTTP mode",
                )
            )
        )
    if settings.mode == "socket" and settings.app_token.startswith("xoxb-"):
        problems.append(XOXB_IN_APP_KEY)
    elif settings.mode == "socket" and not settings.app_token.startswith("xapp-"):
        problems.append(
            str(
                empty_setting(
                    "slack.app_token",
                    settings,
                    "",
                    problem="Socket Mode needs an app-level token (xapp-…)",
                )
            )
        )
    if problems:
        raise ConfigError("; ".join(problems))
