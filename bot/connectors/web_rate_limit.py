"""How many questions one client may ask the web API per minute (``web.rate_limit_per_minute``).

A public chat or widget is an open door to the model behind it: one script asking in a loop
would cost money and crowd out everyone else. Each client address gets a sliding one-minute
window; a question over the limit is refused with 429 and ``Retry-After`` (the seconds until its
oldest counted question leaves the window) before any work is done. The count lives in memory:
a restart forgets it, which is harmless for a per-minute limit. Behind a reverse proxy on the same
host, uvicorn reads the client's address from ``X-Forwarded-For`` (from the proxies in
``$FORWARDED_ALLOW_IPS``, loopback by default; see ``web_proxy``).

An IPv6 client is counted by its /64 network (``client_key``): one host is routinely given a
whole /64 and may pick a fresh address from it for every request, so counting single addresses
would not limit it at all.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict, deque
from collections.abc import Callable

WINDOW_SECONDS = 60.0
MAX_CLIENTS = 10_000
"""Clients remembered at once; the least recently seen are forgotten first (bounded memory)."""


IPV6_CLIENT_PREFIX = 64
"""The IPv6 network counted as one client: the usual size of one subscriber's or host's share."""


def client_key(host: str) -> str:
    """The address a client's questions are counted under: an IPv4 address as it is (also when
    written IPv4-mapped, ``::ffff:192.0.2.1``), an IPv6 address as its /64 network, and
    anything else (a unix socket, "unknown") as given."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, IPV6_CLIENT_PREFIX), strict=False))
    return str(address)


class QuestionRateLimit:
    """Counts questions per client; ``per_minute`` 0 turns the limit off."""

    def __init__(
        self,
        per_minute: int,
        clock: Callable[[], float] = time.monotonic,
        max_clients: int = MAX_CLIENTS,
    ) -> None:
        self.per_minute = per_minute
        self._clock = clock
        self._max_clients = max_clients
        self._asked: OrderedDict[str, deque[float]] = OrderedDict()

    def wait_seconds(self, client: str) -> int:
        """0 when ``client`` may ask now (the question is counted), else the whole seconds
        until it may ask again."""
        if self.per_minute <= 0:
            return 0
        now = self._clock()
        asked = self._asked.pop(client, None) or deque()
        while asked and asked[0] <= now - WINDOW_SECONDS:
            asked.popleft()
        self._asked[client] = asked  # now the most recently seen
        if len(asked) >= self.per_minute:
            return max(1, math.ceil(asked[0] + WINDOW_SECONDS - now))
        asked.append(now)
        while len(self._asked) > self._max_clients:
            self._asked.popitem(last=False)
        return 0
