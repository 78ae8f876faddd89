"""Which sites may use the web API: citecast's own pages and the sites in ``web.cors_origins``.

CORS only stops a foreign page from *reading* the answer; refusing the request also stops it
from making us do the work (and store the turn) in the first place. A refused site is logged
once, since the visitor's browser only says the server cannot be reached.
"""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

from starlette.requests import Request

from bot.config_channels import WebSettings

# the web channel's own log, where this line was written before it moved here: operators (and
# the tests) look for it under that name
log = logging.getLogger("bot.connectors.web")


class SiteCheck:
    """Whether a request's site may use the API (the ``web`` settings are read at each call)."""

    def __init__(self, settings: WebSettings) -> None:
        self.settings = settings
        self._refused_origins: set[str] = set()

    def allowed(self, request: Request) -> bool:
        """False for a browser request from a site that is not us and not in cors_origins."""
        origin = request.headers.get("origin")
        if origin is None:
            # Browsers send no Origin with a no-cors GET: an <img> or <script> pointing at
            # /api/ask/stream on any site would make each visitor's browser ask a question.
            # Fetch metadata still says where it came from; curl and servers send neither.
            site = request.headers.get("sec-fetch-site", "").lower()
            return site not in ("cross-site", "same-site")
        own = f"{request.url.scheme}://{request.headers.get('host', '')}"
        allowed = {own, *self.settings.cors_origins}
        if self.settings.public_base_url:
            parts = urlsplit(self.settings.public_base_url)
            allowed.add(f"{parts.scheme}://{parts.netloc}")
        if origin in allowed:
            return True
        self._log_refused_origin(origin)
        return False

    def _log_refused_origin(self, origin: str) -> None:
        """Log a refused site once (at most 100 of them): the visitor's browser only says the
        server cannot be reached, so this line is how a site owner learns what to add."""
        shown = origin[:100]
        if shown in self._refused_origins or len(self._refused_origins) >= 100:
            return
        self._refused_origins.add(shown)
        if shown == "null":
            # what a file:// page or a sandboxed iframe sends: no web.cors_origins entry can
            # allow it (the config refuses "null"), so the usual advice would mislead
            log.warning(
                "refused a request from the site 'null': a page opened as a file (file://) or "
                "in a sandboxed iframe cannot use the widget; serve the page over http(s) and "
                "add its site to web.cors_origins"
            )
            return
        log.warning(
            "refused a request from the site %r: if it embeds the widget, add it to "
            "web.cors_origins",
            shown,
        )
