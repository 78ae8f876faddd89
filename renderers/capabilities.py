"""What a channel can show: :class:`Capabilities`, each channel's defaults, and config overrides.

``Capabilities`` is data: one default per channel (``DEFAULT_CAPABILITIES``), any field
overridable from ``config.yaml`` (``capabilities: {slack: {max_files: 3}}``) through
:func:`capabilities_for`, which refuses what no renderer would honour, in one line naming the
key: a field that describes the renderer or its connector rather than the channel
(:data:`FIXED_FIELDS`: ``markup``, ``streaming``, ``web.max_chars``, ``footnotes`` outside
Discourse, ``links`` and ``masked_links`` on the HTML channels) set to another value than the
channel's, and a ``max_chars``/``max_blocks`` outside the range the renderer writes
(:data:`BOUNDS`: a Discourse post below :data:`DISCOURSE_MIN_MAX_CHARS`, a Discord message
below 200 or above 2,000, ...). :func:`link_style` says how ``links``/``masked_links`` show.
Split out of :mod:`renderers.base`, which re-exports every name here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from bot.errors import ConfigError

Markup = Literal["html", "mrkdwn", "markdown", "plain"]
Streaming = Literal["native", "edit", "none"]
LinkStyle = Literal["masked", "bare", "text"]


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


def link_style(caps: Capabilities) -> LinkStyle:
    """How a channel with ``caps`` shows a link: ``masked`` (its title linking), ``bare`` (its
    title, then the URL: ``masked_links: false``) or ``text`` (its title alone: ``links:
    false``)."""
    if not caps.links:
        return "text"
    return "masked" if caps.masked_links else "bare"


# a Discourse post holds a sentence and a source entry at its shortest (a 30-character title, an
# upload link, "weak support?"): at 158 a post ran past 1,000; the connector asks for no less
DISCOURSE_MIN_MAX_CHARS = 200
_TOO_SHORT_FOR_A_POST = (
    f"must be at least {DISCOURSE_MIN_MAX_CHARS} (a post holds a sentence and its sources)"
)
# the smallest limits the chat renderers write to: a Discord message holds a source entry
# without its link, a Slack section a sentence, a Slack message a section, its sources and a
# row of buttons (they were raised to these silently before)
DISCORD_MIN_MAX_CHARS = 200
SLACK_MIN_SECTION_CHARS = 100
SLACK_MIN_MAX_BLOCKS = 5
# the platforms' own limits, which a capability may tighten but never raise: the numbers of
# renderers.limits (which imports renderers.base, so not importable here; a test holds them equal)
_DISCORD_MAX_CONTENT = 2000
_SLACK_MAX_SECTION_CHARS = 3000
_SLACK_MAX_BLOCKS = 50

BOUNDS: dict[tuple[str, str], tuple[int, int | None, str]] = {
    ("discourse", "max_chars"): (DISCOURSE_MIN_MAX_CHARS, None, ""),
    ("discord", "max_chars"): (DISCORD_MIN_MAX_CHARS, _DISCORD_MAX_CONTENT, "Discord's limit"),
    ("slack", "max_chars"): (SLACK_MIN_SECTION_CHARS, _SLACK_MAX_SECTION_CHARS, "Slack's limit"),
    ("slack", "max_blocks"): (SLACK_MIN_MAX_BLOCKS, _SLACK_MAX_BLOCKS, "Slack's limit"),
}
"""``(channel, field)``: the least and the most (None: no most; the forum sets its own) the
renderer writes to, and whose limit the most is."""

_NAMES = {"web": "web", "slack": "Slack", "discord": "Discord", "email": "email",
          "discourse": "Discourse"}  # fmt: skip
_PICKS_WRITER = "describes the {name} renderer; it cannot be changed"
_CONNECTOR_STREAMS = {
    "web": "the web connector streams over SSE; it cannot be changed",
    "slack": "set by slack.streaming; it cannot be changed here",
    "discord": "the Discord connector streams by editing its message; it cannot be changed",
    "email": "an email is sent whole; it cannot be changed",
    "discourse": "a forum post is sent whole; it cannot be changed",
}
FIXED_FIELDS: dict[tuple[str, str], str] = {
    **{(channel, "markup"): _PICKS_WRITER.format(name=name) for channel, name in _NAMES.items()},
    **{(channel, "streaming"): why for channel, why in _CONNECTOR_STREAMS.items()},
    ("web", "max_chars"): "the web page shows an answer whole, with no message limit; "
    "it cannot be changed",
    ("web", "footnotes"): "the web renderer always shows numbered notes; it cannot be changed",
    ("email", "footnotes"): "an email always lists numbered references; it cannot be changed",
    ("slack", "footnotes"): "Slack has no footnotes; it cannot be changed",
    ("discord", "footnotes"): "Discord has no footnotes; it cannot be changed",
    ("web", "links"): "a web page always shows links; it cannot be changed",
    ("email", "links"): "an HTML email always shows links; it cannot be changed",
    ("web", "masked_links"): "an HTML link always shows its title; it cannot be changed",
    ("email", "masked_links"): "an HTML link always shows its title (the text part shows "
    "bare URLs); it cannot be changed",
}
"""``(channel, field)`` that only the channel's own value may be given for, and why."""


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
            _check_bounds(channel, key, value)
        elif key == "markup" and value not in ("html", "mrkdwn", "markdown", "plain"):
            raise ConfigError(f"capabilities.{channel}.{key}: must be html|mrkdwn|markdown|plain")
        elif key == "streaming" and value not in ("native", "edit", "none"):
            raise ConfigError(f"capabilities.{channel}.{key}: must be native|edit|none")
        if (channel, key) in FIXED_FIELDS and value != default:
            raise ConfigError(f"capabilities.{channel}.{key}: {FIXED_FIELDS[channel, key]}")
        changes[key] = value
    return dataclasses.replace(base, **changes)


def _check_bounds(channel: str, key: str, value: int) -> None:
    """Refuse a limit the renderer would not write to (it was raised or lowered silently)."""
    if (channel, key) not in BOUNDS:
        return
    least, most, why = BOUNDS[channel, key]
    if (channel, key) == ("discourse", "max_chars") and value < least:
        raise ConfigError(f"capabilities.{channel}.{key}: {_TOO_SHORT_FOR_A_POST}")
    if value < least:
        raise ConfigError(
            f"capabilities.{channel}.{key}: must be at least {least} (the least the "
            f"{_NAMES[channel]} renderer writes to)"
        )
    if most is not None and value > most:
        raise ConfigError(f"capabilities.{channel}.{key}: must be at most {most} ({why})")
