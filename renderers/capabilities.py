"""What a channel can show: :class:`Capabilities`, each channel's defaults, and config overrides.

``Capabilities`` is data: one default per channel (``DEFAULT_CAPABILITIES``), any field
overridable from ``config.yaml`` (``capabilities: {slack: {max_files: 3}}``) through
:func:`capabilities_for`, which refuses a Discourse ``max_chars`` below the floor a post needs
(:data:`DISCOURSE_MIN_MAX_CHARS`). Split out of :mod:`renderers.base`, which re-exports every
name here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from bot.errors import ConfigError

Markup = Literal["html", "mrkdwn", "markdown", "plain"]
Streaming = Literal["native", "edit", "none"]


@dataclass(frozen=True)
class Capabilities:
    """What a channel can show. ``media_types`` empty means any type may be attached.

    ``max_chars`` is per message (Slack: per section text; email: the HTML budget in bytes).
    ``min_chars`` is the shortest message the channel accepts (Discourse's ``min_post_length``);
    a shorter answer gets a note saying it is short rather than being refused by the platform.
    """

    markup: Markup
    links: bool = True
    masked_links: bool = True
    footnotes: bool = False
    native_files: bool = False
    max_file_bytes: int = 0
    max_files: int = 0
    media_types: tuple[str, ...] = ()
    max_chars: int = 4000
    min_chars: int = 0
    max_blocks: int = 0
    buttons: bool = False
    embeds: bool = False
    streaming: Streaming = "none"


DEFAULT_CAPABILITIES: dict[str, Capabilities] = {
    "web": Capabilities(markup="html", footnotes=True, buttons=True, streaming="native",
                        max_chars=1_000_000),
    "slack": Capabilities(markup="mrkdwn", native_files=True, max_file_bytes=50_000_000,
                          max_files=10, max_chars=3000, max_blocks=50, buttons=True,
                          streaming="native"),
    "discord": Capabilities(markup="markdown", native_files=True, max_file_bytes=10_000_000,
                            max_files=10, max_chars=2000, buttons=True, streaming="edit"),
    "email": Capabilities(markup="html", native_files=True, max_file_bytes=10_000_000,
                          max_files=10, max_chars=100_000, buttons=True),
    "discourse": Capabilities(markup="markdown", footnotes=True, native_files=True,
                              max_file_bytes=4_000_000, max_files=10, max_chars=32_000,
                              min_chars=20),
}  # fmt: skip


# a Discourse post holds a sentence and a source entry at its shortest (a 30-character title, an
# upload link, "weak support?"): at 158 a post ran past 1,000; the connector asks for no less
DISCOURSE_MIN_MAX_CHARS = 200
_TOO_SHORT_FOR_A_POST = (
    f"must be at least {DISCOURSE_MIN_MAX_CHARS} (a post holds a sentence and its sources)"
)


def capabilities_for(channel: str, overrides: Mapping[str, Any] | None = None) -> Capabilities:
    """The channel's default capabilities with ``overrides`` (from config) applied.

    Raises ConfigError naming the key for an unknown channel, unknown field or bad value.
    """
    try:
        base = DEFAULT_CAPABILITIES[channel]
    except KeyError:
        channels = ", ".join(DEFAULT_CAPABILITIES)
        raise ConfigError(
            f"capabilities.{channel}: unknown channel (channels: {channels})"
        ) from None
    if not overrides:
        return base
    known = {f.name: f for f in dataclasses.fields(Capabilities)}
    changes: dict[str, Any] = {}
    for key, value in overrides.items():
        if key not in known:
            raise ConfigError(f"capabilities.{channel}.{key}: unknown capability")
        default = getattr(base, key)
        if key == "media_types":
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
                raise ConfigError(f"capabilities.{channel}.{key}: must be a list of strings")
            value = tuple(value)
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise ConfigError(f"capabilities.{channel}.{key}: must be true or false")
        elif isinstance(default, int):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ConfigError(f"capabilities.{channel}.{key}: must be a non-negative integer")
            if (channel, key) == ("discourse", "max_chars") and value < DISCOURSE_MIN_MAX_CHARS:
                raise ConfigError(f"capabilities.{channel}.{key}: {_TOO_SHORT_FOR_A_POST}")
        elif key == "markup" and value not in ("html", "mrkdwn", "markdown", "plain"):
            raise ConfigError(f"capabilities.{channel}.{key}: must be html|mrkdwn|markdown|plain")
        elif key == "streaming" and value not in ("native", "edit", "none"):
            raise ConfigError(f"capabilities.{channel}.{key}: must be native|edit|none")
        changes[key] = value
    return dataclasses.replace(base, **changes)
