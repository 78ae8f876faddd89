"""The ``discourse`` settings checked at start, so a forum that could not be answered is refused.

Each problem is one line naming the key (``citecast serve`` prints it and exits 2), instead of a
server that starts and then refuses every webhook or fails every reply.
"""

from __future__ import annotations

import logging
import re

import httpx

from bot.config import DiscourseSettings
from bot.config_env import blank_because, env_source
from bot.connectors.discourse_header_values import check_header_values
from bot.errors import ConfigError
from bot.url_secrets import quoted_url, redact_urls

log = logging.getLogger(__name__)

# The README asks for "a long random secret": anyone who has it can make the bot answer (and
# post) whatever they send; 16 characters is where a guess stops being practical.
MIN_SECRET_LENGTH = 16

_USERNAME = re.compile(r"[\w.\-]+")
_HOST = re.compile(r"[A-Za-z0-9.\-]+|[0-9A-Fa-f:.]+")


def check_settings(settings: DiscourseSettings) -> None:
    """Fail at start, in one line naming the key, when the forum could not be answered.

    Without these the server would start and then refuse every webhook (no secret to check
    signatures with), fail every reply (no usable API address, key or user), or answer nothing
    at all (no category listed).
    """
    missing = [
        f"discourse.{key}"
        for key in ("base_url", "api_key", "webhook_secret")
        if not str(getattr(settings, key)).strip()
    ]
    if missing:
        # an unset ${DISCOURSE_API_KEY} is the usual cause: say so rather than leave a guess
        why = [note for key in missing if (note := blank_because(settings, key.split(".")[1]))]
        because = f" ({'; '.join(why)})" if why else ""
        raise ConfigError(f"{', '.join(missing)}: required when discourse is enabled{because}")
    check_header_values(settings)
    _check_base_url(settings.base_url, env_source(settings, "base_url"))
    if not _USERNAME.fullmatch(settings.api_username):
        raise ConfigError(
            "discourse.api_username: the bot user's username (letters, digits, _ . -):"
            f" {settings.api_username!r}"
        )
    for name in settings.ignore_users:
        # compared with each post's username: "@otherbot" would never match, and two bots
        # would answer each other until a rate limit stopped them
        if not _USERNAME.fullmatch(name):
            raise ConfigError(
                "discourse.ignore_users: usernames as the forum spells them (letters, digits,"
                f" _ . -, no '@'): {name!r}"
            )
    if not settings.categories:
        raise ConfigError(
            "discourse.categories: list the ids of the categories to answer in"
            " (nothing outside them is ever answered)"
        )
    for key, groups in settings.audience_by_category.items():
        if not key.isdigit() or str(int(key)) != key:
            raise ConfigError(
                f"discourse.audience_by_category.{key}: must be a category id (a number)"
            )
        if not groups:
            raise ConfigError(
                f"discourse.audience_by_category.{key}: name the groups that read the category"
            )
        if "public" in groups and len(set(groups)) > 1:
            # The groups are the readers' together: with "public" among them every reader
            # would be given the other groups' sources.
            raise ConfigError(
                f"discourse.audience_by_category.{key}: a category everyone reads is public;"
                " list only the groups that read it, or leave it out"
            )


def warn_weak_secret(settings: DiscourseSettings) -> None:
    """One warning at start when ``webhook_secret`` is shorter than :data:`MIN_SECRET_LENGTH`
    characters: it still works (an admin may be trying things out), but it can be guessed."""
    length = len(settings.webhook_secret.strip())
    if 0 < length < MIN_SECRET_LENGTH:
        log.warning(
            "discourse.webhook_secret is only %d characters: whoever guesses it can send"
            " webhooks citecast answers; set a long random secret (%d characters or more, e.g."
            " the output of `openssl rand -hex 32`) in the forum's webhook and in"
            " DISCOURSE_WEBHOOK_SECRET",
            length,
            MIN_SECRET_LENGTH,
        )


def _check_base_url(base_url: str, source: str) -> None:
    """Refuse a ``base_url`` that is not a forum's address, quoting it without the credentials
    it may carry (the old API took its key as ``?api_key=``), or naming the variable that gave
    it (``source``) rather than quote that at all."""
    problem = ""
    try:
        url = httpx.URL(base_url.strip())
    except (httpx.InvalidURL, ValueError) as exc:
        problem = "not a valid URL" if source else redact_urls(str(exc))
    else:
        if url.scheme not in ("http", "https"):
            problem = "must be the forum's http(s) address"
        elif not url.host:
            problem = "has no host name"
        elif not _HOST.fullmatch(url.raw_host.decode("ascii", "replace")):
            problem = "the host name is not valid"
        elif url.query or url.fragment:
            problem = "must be the forum's address, without ?query or #fragment"
    if problem:
        raise ConfigError(f"discourse.base_url: {problem}: {quoted_url(base_url, source)}")
