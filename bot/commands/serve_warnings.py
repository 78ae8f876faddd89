"""What ``citecast serve`` warns of at start, about settings that work but may surprise.

Each is a line the operator reads before the first request: the web channel listening beyond
this machine (:func:`exposure_warnings`), and a ``web.file_roots`` folder that is not there
(:func:`missing_file_roots`).
"""

from __future__ import annotations

import ipaddress
from typing import TYPE_CHECKING

from bot.errors import ConfigError
from bot.path_lookup import path_state

if TYPE_CHECKING:
    from bot.config import Settings


def start_warnings(settings: Settings, host: str) -> list[str]:
    """Every start warning for ``settings`` served on ``host``, in the order they are logged."""
    return [*missing_file_roots(settings), *exposure_warnings(settings, host)]


def missing_file_roots(settings: Settings) -> list[str]:
    """One line per ``web.file_roots`` entry that is not a folder (missing, or a file).

    Not an error: the folder may be mounted later, and a file in it is served once it is
    there. But a mistyped path otherwise only shows as cited files that never get a link.
    """
    warnings = []
    for root in settings.web.file_roots:  # made absolute when the config was read
        found = path_state(root, shown=f"web.file_roots: {root}", error=ConfigError)
        if found.is_dir:
            continue
        if found.exists:
            warnings.append(f"web.file_roots: {root} is not a folder: no file is served from it")
        else:
            warnings.append(
                f"web.file_roots: {root} does not exist: files cited from it get no download "
                "link until it does"
            )
    return warnings


def _is_loopback(host: str) -> bool:
    name = host.strip("[]").lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def exposure_warnings(settings: Settings, host: str) -> list[str]:
    """What an operator should hear before the web channel listens beyond this machine.

    Nothing on a loopback address. Otherwise: every visitor gets ``web.audience`` (no login),
    so groups other than ``public`` there are readable by anyone who reaches the port; and
    bound to an IP address with neither ``web.allowed_hosts`` nor ``web.public_base_url``,
    every request naming the server by a host name (through a proxy, a container name) is
    refused with 400, which otherwise only shows once the first such request arrives.
    """
    if _is_loopback(host):
        return []
    web = settings.web
    warnings: list[str] = []
    private = [group for group in web.audience if group != "public"]
    if private:
        warnings.append(
            f"web.audience gives every web visitor the groups {', '.join(private)} and "
            f"{host} is not a loopback address: anyone who reaches this port reads sources "
            "meant for them; put an authenticating proxy in front or serve on 127.0.0.1"
        )
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return warnings  # a host name: requests naming it are answered
    if not web.allowed_hosts and not web.public_base_url:
        warnings.append(
            f"listening on {host}: requests that name this server by a host name rather than "
            "an IP address are refused until web.allowed_hosts (or web.public_base_url) "
            "names it"
        )
    return warnings
