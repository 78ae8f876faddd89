"""Caching of the web channel's own files: ``/widget.js`` and ``/static/*``.

After an upgrade a browser must not keep running an old copy beside new ones (``chat.js`` of
one release with ``history.js`` of another). Without a ``Cache-Control`` header a browser may
reuse a file with a ``Last-Modified`` date for a tenth of its age unasked (RFC 9111 §4.2.2: a
day for a file ten days old), as releases before this header did. The pages therefore name
each file with its content hash (``web_asset_versions``), which escapes what those releases let
browsers keep; the query is ignored here, so an old page's unversioned URL still works. And:

- ``/static/*`` is ``no-cache``: the browser asks each time, and an unchanged file is a bodiless
  ``304 Not Modified`` (``ETag`` / ``If-None-Match``, or ``Last-Modified`` / ``If-Modified-Since``).
  Versioned URLs too, not ``immutable``: one from a page or widget.js of another release gets
  this release's file, which a browser must not then keep under that name;
- ``/widget.js`` is ``public, max-age=300`` (it is loaded on every page view of every site that
  embeds it, so a few minutes of reuse matter), and after those it is revalidated the same way
  rather than sent again in full.
"""

from __future__ import annotations

import os
from email.utils import parsedate_to_datetime

from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.staticfiles import PathLike, StaticFiles
from starlette.types import Scope

STATIC_CACHE_CONTROL = "no-cache"
WIDGET_CACHE_CONTROL = "public, max-age=300"


def not_modified(response_headers: Headers, request_headers: Headers) -> bool:
    """Whether the client's copy is current: ``If-None-Match`` when sent (it wins, RFC 9110
    §13.1.3), else ``If-Modified-Since``; an unreadable date means "send it"."""
    if_none_match = request_headers.get("if-none-match")
    if if_none_match is not None:
        etag = response_headers.get("etag", "").removeprefix("W/")
        tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
        return "*" in tags or (bool(etag) and etag in tags)
    since, modified = (
        request_headers.get("if-modified-since"),
        response_headers.get("last-modified"),
    )
    if since is None or modified is None:
        return False
    try:
        return parsedate_to_datetime(since) >= parsedate_to_datetime(modified)
    except (TypeError, ValueError):
        return False


class RevalidatedStaticFiles(StaticFiles):
    """``StaticFiles`` whose every answer (200, 206 or 304) says ``Cache-Control: no-cache``."""

    def file_response(
        self,
        full_path: PathLike,
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = STATIC_CACHE_CONTROL
        return response
