"""``GET /files/{token}``: signed downloads of cited files that have no public URL.

Every refusal is the same 404 with the same body, whether the token was tampered with, expired,
points outside the knowledge base, names a file that is gone, or names one its audience may no
longer read (made private, or dropped from the index, since the link was signed: see
:mod:`bot.connectors.web_file_access`), so the endpoint cannot be used to learn what exists on
the server. Files are served with ``nosniff`` and a sandboxing CSP, and
anything a browser could execute (HTML, SVG, scripts) is sent as an attachment, never inline.
A PDF is the exception to the CSP: Chrome refuses to start its PDF viewer in a sandboxed
document ("This page has been blocked by Chrome", Chromium issue 413851) and Safari shows an
empty page, so a cited PDF would never open at its page. It is shown inline without one:
``nosniff`` keeps it a PDF, and the browsers' PDF viewers run its scripts, if any, apart from
this origin.

A Markdown, plain-text or HTML file is shown through a reading page instead
(:mod:`bot.connectors.web_file_viewer`: rendered, sanitized, under a strict CSP), so its citation
opens readable and a text fragment in the link lands on the quoted passage; its own bytes are
one click away, ``?download=1``, always as an attachment. Its relative links lead to the other
files it names only when the linked file passes the rules of a citation link
(:mod:`bot.connectors.web_viewer_links`); otherwise they are text.
"""

from __future__ import annotations

import logging
import re

from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response

from bot.connectors.web_file_access import readable
from bot.connectors.web_file_viewer import (
    VIEWER_CSP,
    LinkTarget,
    read_for_view,
    viewer_kind,
    viewer_page,
)
from bot.connectors.web_viewer_links import FileIndex, ViewerLinks
from bot.filetokens import FileGrant, FileSigner, FileTokenError

log = logging.getLogger(__name__)

_INLINE_TYPES = frozenset(
    {
        "application/pdf",
        "text/plain",
        "text/csv",
        "text/markdown",
        "image/png",
        "image/jpeg",
        "image/gif",
        "image/webp",
    }
)
NOT_FOUND_BODY = {"error": "not found"}


def not_found() -> Response:
    """The one answer to every bad download request."""
    return JSONResponse(NOT_FOUND_BODY, status_code=404, headers={"Cache-Control": "no-store"})


_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "private, no-store",
    "Referrer-Policy": "no-referrer",
}


def file_response(
    signer: FileSigner | None,
    token: str,
    *,
    files: FileIndex,
    download: bool = False,
) -> Response:
    """What a token grants: the reading page of a Markdown, text or HTML file, else the file
    itself (``download``: always the file, as an attachment); or the uniform 404.

    ``files`` (the indexed files) says who may read the file now: a valid token is served only
    while its audience may (:func:`bot.connectors.web_file_access.readable`: not after the file
    was made private or dropped from the index). It also lets the reading page link the files
    its document links."""
    if signer is None:
        return not_found()
    try:
        grant = signer.verify(token)
    except FileTokenError:
        return not_found()
    now = readable(files, grant.path, grant.audience)
    if now is None:
        # made private, or dropped from the index, since the link was signed: the same answer
        # as a file that never existed
        log.info(
            "refused %s: audience %s may no longer read it", logged(grant.filename), _shown(grant)
        )
        return not_found()
    log.info("serving %s to audience %s", logged(grant.filename), _shown(grant))
    kind = viewer_kind(grant.media_type)
    if kind is not None and not download:
        title = None if now.source is None else now.source.title
        return _viewer_response(grant, kind, ViewerLinks(grant, signer, files), title)
    media_type = grant.media_type
    inline = media_type in _INLINE_TYPES and not download
    if media_type.startswith("text/"):
        media_type += "; charset=utf-8"
    headers = dict(_HEADERS)
    if grant.media_type != "application/pdf":
        headers["Content-Security-Policy"] = "default-src 'none'; sandbox"
    return FileResponse(
        grant.path,
        media_type=media_type,
        filename=grant.filename,
        content_disposition_type="inline" if inline else "attachment",
        headers=headers,
    )


def _shown(grant: FileGrant) -> str:
    return logged(",".join(sorted(grant.audience)))


# Control characters (C0, DEL, C1) and Unicode line and paragraph separators.
_LOG_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def logged(text: str) -> str:
    """``text`` (a file or group name) safe in one log line: control characters and Unicode
    line breaks written as escapes (``\\n``, ``\\x1b``, ``\\u2028``), as ``citecast ingest``
    writes file names. A name is the file system's or front matter's: ``pay\\n<date> INFO
    serving x`` would otherwise forge a log line of its own, and an ANSI escape repaint the
    terminal of whoever reads the log."""
    return _LOG_CONTROLS.sub(lambda m: m[0].encode("unicode_escape").decode("ascii"), text)


def _viewer_response(grant: FileGrant, kind: str, links: LinkTarget, title: str | None) -> Response:
    try:
        viewed = read_for_view(grant.path, grant.filename, kind)
    except OSError:
        return not_found()  # gone (or unreadable) since verify: the same answer as any refusal
    headers = {**_HEADERS, "Content-Security-Policy": VIEWER_CSP}
    return HTMLResponse(viewer_page(viewed, links=links, title=title), headers=headers)
