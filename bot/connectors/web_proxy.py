"""The reverse proxies citecast trusts, and the path prefix they say they serve it under.

A proxy that serves citecast under a sub-path (``https://example.org/help/`` to citecast's ``/``)
may say so in ``X-Forwarded-Prefix: /help`` (Traefik's StripPrefix sets it; nginx with
``proxy_set_header``). The links citecast builds from a request (an answer's ``share_url``,
its signed ``/files/`` links) then carry the prefix, as they would with ``web.public_base_url``
set (which, when set, still wins).

Only the proxies uvicorn already believes about ``X-Forwarded-Proto`` and ``X-Forwarded-For``
are believed: the addresses in ``FORWARDED_ALLOW_IPS`` (uvicorn's ``--forwarded-allow-ips``;
loopback by default), judged on the connection's own peer address. Anyone else's header is
ignored. ``behind_proxies`` wraps the app in both checks with the one list; ``citecast serve``
must then run uvicorn with ``proxy_headers=False``, or uvicorn's own middleware would replace
the peer with the ``X-Forwarded-For`` client before this one could judge it (which only makes
the prefix ignored, never wrongly believed).

The prefix is taken only as a path of plain segments (RFC 3986 unreserved characters, no ``.``
or ``..``, nothing empty), from exactly one header: anything else is ignored with a debug log,
so no header can put a host, a scheme, a quote or a line break into a link. It changes only the
links of the response to that one request: nothing built from it is stored or shared (the store
keeps Answer JSON, every page and API response re-renders its links, and other channels build
theirs from ``web.public_base_url`` alone).

A redirect to this same server (Starlette's from ``/files/x/`` to ``/files/x``; the app sends
no other) is made a path, prefix first (``Location: /help/files/x``): Starlette writes it as an
absolute URL from the ``Host`` header and the inner path, which loses the prefix (the browser
would leave the proxy's sub-path) and names whatever host the request said.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger(__name__)

DEFAULT_TRUSTED = "127.0.0.1,::1"
"""uvicorn's own default for ``FORWARDED_ALLOW_IPS``: a proxy on the same host."""
HEADER = b"x-forwarded-prefix"
STATE_KEY = "citecast_forwarded_prefix"
"""Where the believed prefix waits in the request's ``scope["state"]`` ("" for none)."""
MAX_PREFIX = 200
_SEGMENT = re.compile(r"[A-Za-z0-9._~-]+")  # RFC 3986 unreserved: nothing to escape or inject

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_proxies_setting(environ: Mapping[str, str] = os.environ) -> str:
    """The trusted proxies as uvicorn reads them: ``$FORWARDED_ALLOW_IPS``, else loopback."""
    return environ.get("FORWARDED_ALLOW_IPS", DEFAULT_TRUSTED)


@dataclass(frozen=True)
class TrustedProxies:
    """Peer addresses whose forwarding headers are believed, parsed as uvicorn parses them:
    comma-separated addresses and networks (CIDR), other entries matched literally (a unix
    socket), and ``*`` alone for any peer."""

    any_peer: bool = False
    addresses: frozenset[IPAddress] = frozenset()
    networks: tuple[IPNetwork, ...] = ()
    literals: frozenset[str] = frozenset()

    @classmethod
    def parse(cls, setting: str) -> TrustedProxies:
        """The proxies a ``FORWARDED_ALLOW_IPS`` value names."""
        if setting == "*":
            return cls(any_peer=True)
        addresses: set[IPAddress] = set()
        networks: list[IPNetwork] = []
        literals: set[str] = set()
        for entry in (item.strip() for item in setting.split(",")):
            try:
                if "/" in entry:
                    networks.append(ipaddress.ip_network(entry))
                else:
                    addresses.add(ipaddress.ip_address(entry))
            except ValueError:
                literals.add(entry)
        return cls(False, frozenset(addresses), tuple(networks), frozenset(literals))

    def trusts(self, peer: str | None) -> bool:
        """Whether a connection from ``peer`` (the socket's address) is a trusted proxy."""
        if self.any_peer:
            return True
        if not peer:
            return False
        try:
            address = ipaddress.ip_address(peer)
        except ValueError:
            return peer in self.literals
        return address in self.addresses or any(address in net for net in self.networks)


def parse_prefix(value: str) -> str | None:
    """``/help`` for ``/help`` or ``/help/``, "" for ``/``, None for anything not a plain path."""
    value = value.strip(" \t")
    if len(value) > MAX_PREFIX or not value.startswith("/"):
        return None
    body = value[1:].removesuffix("/")
    if not body:
        return ""
    segments = body.split("/")
    if any(s in (".", "..") or not _SEGMENT.fullmatch(s) for s in segments):
        return None
    return "/" + "/".join(segments)


def forwarded_prefix(headers: Iterable[tuple[bytes, bytes]]) -> str:
    """The prefix one ``X-Forwarded-Prefix`` header names, or "" (with a debug log when there
    was something, but not exactly one plain path)."""
    values = [bytes(value) for name, value in headers if bytes(name).lower() == HEADER]
    if not values:
        return ""
    if len(values) > 1:
        log.debug("ignored %d X-Forwarded-Prefix headers: a proxy sends one", len(values))
        return ""
    raw = values[0].decode("latin-1")
    prefix = parse_prefix(raw)
    if prefix is None:
        log.debug("ignored X-Forwarded-Prefix %r: not a path of plain segments", raw[:100])
        return ""
    return prefix


class ForwardedPrefix:
    """ASGI wrapper: the prefix a trusted proxy forwarded, in ``scope["state"]``.

    It must see the connection's own peer, so it goes outside anything that rewrites
    ``scope["client"]`` from ``X-Forwarded-For`` (see ``behind_proxies``).
    """

    def __init__(self, app: ASGIApp, trusted: TrustedProxies) -> None:
        self.app = app
        self.trusted = trusted

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            client = scope.get("client")
            peer = str(client[0]) if client else None
            headers = scope.get("headers", [])
            if self.trusted.trusts(peer):
                prefix = forwarded_prefix(headers)
            else:
                prefix = ""
                if any(bytes(name).lower() == HEADER for name, _ in headers):
                    log.debug("ignored X-Forwarded-Prefix from %s: not a trusted proxy", peer)
            state: dict[str, Any] = scope.setdefault("state", {})
            state[STATE_KEY] = prefix
            if scope["type"] == "http":
                send = _local_redirects(send, _host_header(headers), prefix)
        await self.app(scope, receive, send)


def _host_header(headers: Iterable[tuple[bytes, bytes]]) -> str | None:
    for name, value in headers:
        if bytes(name).lower() == b"host":
            return bytes(value).decode("latin-1").strip().lower()
    return None


def local_location(location: str, host: str | None, prefix: str) -> str | None:
    """``location`` as a path under ``prefix`` when it is an absolute http(s) URL of ``host``
    (this request's ``Host``), else None (left as it is)."""
    try:
        parts = urlsplit(location)
    except ValueError:
        return None
    if not host or parts.scheme not in ("http", "https") or parts.netloc.lower() != host:
        return None
    path = prefix + (parts.path if parts.path.startswith("/") else "/" + parts.path)
    query = f"?{parts.query}" if parts.query else ""
    fragment = f"#{parts.fragment}" if parts.fragment else ""
    return path + query + fragment


def _local_redirects(send: Send, host: str | None, prefix: str) -> Send:
    """``send`` with a redirect to this server rewritten by :func:`local_location`."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start" and 300 <= int(message["status"]) < 400:
            headers = []
            for name, value in message.get("headers", []):
                if bytes(name).lower() == b"location":
                    local = local_location(bytes(value).decode("latin-1"), host, prefix)
                    if local is not None:
                        value = local.encode("latin-1")
                headers.append((name, value))
            message = {**message, "headers": headers}
        await send(message)

    return sending


def behind_proxies(app: ASGIApp, setting: str | None = None) -> ASGIApp:
    """``app`` with uvicorn's ``X-Forwarded-Proto``/``-For`` handling and the forwarded prefix,
    both believed from the same proxies (``setting``, by default ``$FORWARDED_ALLOW_IPS``).

    Run uvicorn with ``proxy_headers=False``: this already applies its middleware, inside.
    """
    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

    trusted = trusted_proxies_setting() if setting is None else setting
    inner = cast(ASGIApp, ProxyHeadersMiddleware(cast(Any, app), trusted_hosts=trusted))
    return ForwardedPrefix(inner, TrustedProxies.parse(trusted))


def prefix_of(scope: Scope) -> str:
    """The prefix ``ForwardedPrefix`` believed for this request ("" for none, or unwrapped)."""
    state = scope.get("state")
    prefix = state.get(STATE_KEY, "") if isinstance(state, Mapping) else ""
    return prefix if isinstance(prefix, str) else ""


def request_base_url(request: Request) -> str:
    """The address a browser reached us on (links in answers point back here): the request's
    origin, plus the path prefix a trusted reverse proxy forwarded (:func:`prefix_of`).

    Only for the response to this request: ``web.public_base_url``, when set, wins wherever
    this is used, and nothing built from it is stored or given to another viewer.
    """
    return str(request.base_url).rstrip("/") + prefix_of(request.scope)
