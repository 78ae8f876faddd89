"""Which ``Host`` headers the web channel answers (``web.allowed_hosts``), against DNS rebinding.

A server on 127.0.0.1 is still reachable from a hostile page: its site rebinds its own name to
127.0.0.1, and the browser, seeing the same origin, lets the page read the answers and shared
pages. What the browser cannot hide is the name it asked for, in the ``Host`` header, so a
request naming a host this deployment does not answer to is refused before any work.

Always allowed: ``localhost`` and its subdomains, any IP address literal (a page can only
reach one by being on that address, so it cannot be a rebinding), names under ``.test`` (RFC
6761: never resolved by public DNS, so no outside site can rebind one), the bind address, the
host of ``web.public_base_url``, and each ``web.allowed_hosts`` entry: ``name``, ``name:port``
(that port only) or ``*.example.com`` (its subdomains). ``*`` turns the check off.

Entries are parsed by ``bot.host_names`` (which ``bot.config`` also uses to validate them).
"""

from __future__ import annotations

import ipaddress
import json
import logging
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from bot.host_names import ANY_HOST, HOST_NAME, HostPattern, parse_host_pattern, split_host

log = logging.getLogger(__name__)

# names public DNS never answers for (RFC 6761), so no outside site can rebind them
_RESERVED_SUFFIXES = (".localhost", ".test")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def _always_allowed(name: str) -> bool:
    if name == "localhost" or name.endswith(_RESERVED_SUFFIXES):
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class HostPolicy:
    """The hosts one deployment answers to; ``any_host`` when ``*`` turned the check off."""

    patterns: tuple[HostPattern, ...] = ()
    any_host: bool = False

    def allows(self, host: str | None) -> bool:
        """Whether a request with this ``Host`` header is for us (no header: HTTP/1.0, yes)."""
        if self.any_host or host is None:
            return True
        split = split_host(host)
        if split is None:
            return False
        name, port = split
        return _always_allowed(name) or any(p.matches(name, port) for p in self.patterns)


def host_policy(
    allowed_hosts: Iterable[str], public_base_url: str | None, bind_host: str
) -> HostPolicy:
    """The policy for ``web.allowed_hosts`` plus the public base URL's host and the bind host."""
    entries = [entry.strip() for entry in allowed_hosts]
    if ANY_HOST in entries:
        return HostPolicy(any_host=True)
    patterns = [parse_host_pattern(entry) for entry in entries]
    if public_base_url:
        # any port: behind a proxy the public URL's port is not the one the proxy forwards
        hostname = urlsplit(public_base_url).hostname
        if hostname:
            patterns.append(HostPattern(hostname.lower().rstrip(".")))
    bind = bind_host.strip().lower().strip("[]").rstrip(".")
    if bind and HOST_NAME.fullmatch(bind):
        patterns.append(HostPattern(bind))
    return HostPolicy(tuple(patterns))


class HostCheck:
    """ASGI wrapper: a request for a host the policy refuses gets a JSON 400, before any work.

    Each refused host is logged once, so an operator who forgot ``web.allowed_hosts`` behind a
    reverse proxy sees which name to add.
    """

    def __init__(self, app: ASGIApp, policy: HostPolicy) -> None:
        self.app = app
        self.policy = policy
        self._logged: set[str] = set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = _header(scope, b"host")
        if self.policy.allows(host):
            await self.app(scope, receive, send)
            return
        shown = (host or "")[:100]
        named = bool(shown.strip())
        if shown not in self._logged and len(self._logged) < 100:
            self._logged.add(shown)
            if named:
                log.warning(
                    "refused a request for host %r: if that is this server's name, add it to "
                    "web.allowed_hosts",
                    shown,
                )
            else:
                # no name to add: the client (a scanner, a broken proxy) sent an empty Host
                log.warning("refused a request with an empty Host header: it names no server")
        reason = (
            f"this server does not answer for host {shown!r} (see web.allowed_hosts)"
            if named
            else "the request's Host header is empty: it must name this server"
        )
        body = json.dumps({"error": reason}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 400,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"cache-control", b"no-store"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None
