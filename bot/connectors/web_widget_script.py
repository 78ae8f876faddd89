"""``GET /widget.js``: the widget's script, with the versions of the files it loads filled in.

Sites embed the widget at a fixed URL (``/widget.js``), so its own URL cannot change with a
release; the URLs it loads (``static/chat.css`` and the chat's modules) can. ``widget.js``
holds ``VERSIONS_MARK``, an empty object as written; the server puts each static file's
version (``web_asset_versions``) in its place as it sends the file, and the widget adds
``?v=<version>`` to each URL it loads. A copy served from elsewhere (a site's CDN, with
``data-api``) keeps the empty object and loads them unversioned, as before.

The body depends on every static file, so its ``ETag`` is its own content's hash and its
``Last-Modified`` the newest of those files' times: a module that changed changes both, and a
browser revalidating after ``max-age`` gets the new versions, not a 304.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from email.utils import formatdate

from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.staticfiles import NotModifiedResponse

from bot.connectors.web_asset_versions import STATIC_DIR, AssetVersions, asset_versions
from bot.connectors.web_assets import WIDGET_CACHE_CONTROL, not_modified

VERSIONS_MARK = "/*citecast:asset-versions*/{}"
MEDIA_TYPE = "text/javascript; charset=utf-8"


@dataclass(frozen=True)
class WidgetScript:
    """The body ``/widget.js`` sends, and its validators."""

    body: bytes
    etag: str
    last_modified: str

    def response(self, request_headers: Headers) -> Response:
        """The script, or a 304 when the client's copy is current (``web_assets``)."""
        headers = {
            "Cache-Control": WIDGET_CACHE_CONTROL,
            "ETag": self.etag,
            "Last-Modified": self.last_modified,
            "X-Content-Type-Options": "nosniff",
        }
        response = Response(self.body, media_type=MEDIA_TYPE, headers=headers)
        if not_modified(response.headers, request_headers):
            return NotModifiedResponse(response.headers)
        return response


def with_versions(source: str, versions: AssetVersions) -> str:
    """``source`` (widget.js) with ``VERSIONS_MARK`` replaced by ``versions`` as a JS object.

    The hashes are hex digits and the names file names, so the JSON is also a JS literal
    that cannot end the comment or the script it sits in."""
    if VERSIONS_MARK not in source:
        raise ValueError(f"widget.js has no {VERSIONS_MARK} for its assets' versions")
    literal = json.dumps(dict(versions.hashes), sort_keys=True, separators=(",", ":"))
    return source.replace(VERSIONS_MARK, literal, 1)


def widget_script(versions: AssetVersions | None = None) -> WidgetScript:
    """This release's ``widget.js`` with ``versions`` (by default its static files')."""
    versions = versions or asset_versions()
    source = (STATIC_DIR / "widget.js").read_text("utf-8")
    body = with_versions(source, versions).encode("utf-8")
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    return WidgetScript(body, etag, formatdate(versions.newest, usegmt=True))
