"""Which ``discourse`` settings an HTTP header cannot carry as written, checked at start.

``api_key`` and ``api_username`` are sent as the ``Api-Key`` and ``Api-Username`` headers, and
``webhook_secret`` must equal the forum's webhook secret byte for byte. A value read from a
secret file usually ends in a line break, which httpx refuses with an error that quotes the
header (the key itself); a non-ASCII character cannot be encoded at all. Each is refused in one
line naming the key, never showing its value: two of the three are secrets.

Discourse compares ``Api-Username`` with the user's name as it arrives (no percent-decoding),
so a bot user with a non-ASCII name (the site setting *unicode usernames*) cannot be named in a
header: the admin is told to give the bot an ASCII username instead.
"""

from __future__ import annotations

from bot.config import DiscourseSettings
from bot.errors import ConfigError

# (setting, what to do about a value an HTTP header cannot carry)
_HEADER_SETTINGS = (
    ("api_key", "paste the key again, as Admin → API → Keys shows it"),
    ("api_username", "rename the bot user"),
    ("webhook_secret", "use the secret the forum's webhook has, without spaces or line breaks"),
)


def header_value_problem(value: str) -> str | None:
    """Why ``value`` cannot be sent as an HTTP header value, or None when it can.

    The reasons never quote the value.
    """
    if value != value.strip():
        return "starts or ends with a space or a line break (a secret file's last newline?)"
    if not value.isascii():
        return "holds a non-ASCII character, which an HTTP header cannot carry"
    if any(not char.isprintable() for char in value):
        return "holds a control character (a tab or a line break)"
    return None


def check_header_values(settings: DiscourseSettings) -> None:
    """Raise ConfigError, in one line naming the setting (never its value), when ``api_key``,
    ``api_username`` or ``webhook_secret`` cannot be sent or compared as written."""
    for key, remedy in _HEADER_SETTINGS:
        value = str(getattr(settings, key))
        problem = header_value_problem(value)
        if problem is None:
            continue
        if key == "api_username" and not value.isascii() and value == value.strip():
            raise ConfigError(
                f"discourse.api_username: {value!r} is not ASCII, and Discourse reads the"
                " Api-Username header as sent (no percent-encoding), so the forum cannot be"
                " told which user posts; give the bot user an ASCII username (e.g. citecast)"
                " and set it here"
            )
        raise ConfigError(f"discourse.{key}: {problem}; {remedy}")
