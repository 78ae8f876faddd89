"""Host names as ``web.allowed_hosts`` writes them: ``name``, ``name:port``, ``*.name`` or ``*``.

Parsing only (stdlib): ``bot.config`` validates entries with :func:`host_pattern_problem` (and
``web.cors_origins`` with :func:`origin_problem`), and
``bot.connectors.web_hosts`` builds the policy that checks each request's ``Host`` header.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

ANY_HOST = "*"
_LABEL = r"(?!-)[a-z0-9_-]{1,63}(?<!-)"
HOST_NAME = re.compile(rf"{_LABEL}(\.{_LABEL})*")


@dataclass(frozen=True)
class HostPattern:
    """One allowed host: ``name`` (lower case, no trailing dot), on ``port`` or any port.

    ``subdomains`` makes it match the names under ``name`` (from ``*.name``), not ``name``.
    """

    name: str
    port: int | None = None
    subdomains: bool = False

    def matches(self, name: str, port: int | None) -> bool:
        if self.port is not None and port != self.port:
            return False
        if self.subdomains:
            return name.endswith("." + self.name)
        return name == self.name


def split_host(value: str) -> tuple[str, int | None] | None:
    """``host[:port]`` (``[v6]:port`` for IPv6) as (lower-case name, port), None if malformed."""
    text = value.strip().lower()
    port_text = ""
    if text.startswith("["):
        close = text.find("]")
        if close < 0:
            return None
        name, rest = text[1:close], text[close + 1 :]
        if rest:
            if not rest.startswith(":"):
                return None
            port_text = rest[1:]
        try:
            ipaddress.IPv6Address(name)
        except ValueError:
            return None
    else:
        name, colon, port_text = text.partition(":")
        if colon and not port_text:
            return None
        name = name.rstrip(".")
        if not HOST_NAME.fullmatch(name):
            return None
    if not port_text:
        return name, None
    if not (port_text.isascii() and port_text.isdecimal()) or not 0 < int(port_text) < 65536:
        return None
    return name, int(port_text)


def parse_host_pattern(entry: str) -> HostPattern:
    """A ``web.allowed_hosts`` entry as a HostPattern; ValueError saying what is wrong."""
    text = entry.strip()
    if "://" in text or "/" in text:
        parts = urlsplit(text if "://" in text else "//" + text)
        hint = f", like {parts.netloc!r}" if parts.netloc else ""
        raise ValueError(
            f"{entry!r} is not a host name: give the host without scheme or path{hint}"
        )
    subdomains = text.startswith("*.")
    split = split_host(text[2:] if subdomains else text)
    if split is None or not text:
        raise ValueError(
            f"{entry!r} is not a host name; write 'ask.example.com', 'ask.example.com:8443',"
            " '*.example.com' or '*' (any host)"
        )
    return HostPattern(split[0], split[1], subdomains)


def host_pattern_problem(entry: str) -> str | None:
    """Why ``entry`` cannot be a ``web.allowed_hosts`` entry, or None when it can."""
    if entry.strip() == ANY_HOST:
        return None
    try:
        parse_host_pattern(entry)
    except ValueError as exc:
        return str(exc)
    return None


def origin_problem(entry: str) -> str | None:
    """Why ``entry`` cannot be a ``web.cors_origins`` entry, or None when it is an origin.

    Browsers send ``Origin`` as ``scheme://host[:port]`` in lower case, and it is compared
    exactly, so an entry with a path, a trailing slash, capitals or a space around it would never
    match: it is refused with the form to write instead.
    """
    text = entry.strip()
    try:
        parts = urlsplit(text)
        split = split_host(parts.netloc) if parts.netloc and "@" not in parts.netloc else None
    except ValueError:
        split = None
    if parts.scheme.lower() not in ("http", "https") or split is None:
        return (
            f"{entry!r} is not an origin; write the site's scheme and host, like "
            "'https://www.example.com' (or 'http://localhost:3000')"
        )
    scheme = parts.scheme.lower()
    host = parts.netloc.lower().rsplit(":", 1)[0] if split[1] is not None else parts.netloc.lower()
    default = {"http": 80, "https": 443}[scheme]
    port = "" if split[1] in (None, default) else f":{split[1]}"  # browsers omit the default
    written = f"{scheme}://{host.rstrip('.')}{port}"
    if entry != written:  # a space around it too: it would never match
        return f"{entry!r} is not an origin as browsers send it: write {written!r}"
    return None


def entries_without_problem(
    entries: list[str], problem_of: Callable[[str], str | None]
) -> list[str]:
    """``entries`` unchanged, or ValueError with the first entry's problem (``problem_of``)."""
    for entry in entries:
        problem = problem_of(entry)
        if problem:
            raise ValueError(problem)
    return entries
