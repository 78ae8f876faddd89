"""``GET /files/{token}``: signed downloads of cited files that have no public URL.

Every refusal is the same 404 with the same body, whether the token was tampered with, expired,
points outside the knowledge base or names a file that is gone, so the endpoint cannot be used
to learn what exists on the server. Files are served with ``nosniff`` and a sandboxing CSP, and
anything a browser could execute (HTML, SVG, scripts) is sent as an attachment, never inline.
A PDF is the exception to the CSP: Chrome refuses to start its PDF viewer in a sandboxed
document ("This page has been blocked by Chrome", Chromium issue 413851) and Safari shows an
empty page, so a cited PDF would never open at its page. It is shown inline without one:
``nosniff`` keeps it a PDF, and the browsers' PDF viewers run its scripts, if any, apart from
this origin.
"""

from __future__ import annotations

import logging

from starlette.responses import FileResponse, JSONResponse, Response

from bot.filetokens import FileSigner, FileTokenError

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


def file_response(signer: FileSigner | None, token: str) -> Response:
    """The file a token grants, or the uniform 404."""
    if signer is None:
        return not_found()
    try:
        grant = signer.verify(token)
    except FileTokenError:
        return not_found()
    media_type = grant.media_type
    inline = media_type in _INLINE_TYPES
    if media_type.startswith("text/"):
        media_type += "; charset=utf-8"
    log.info("serving %s to audience %s", grant.filename, ",".join(sorted(grant.audience)))
    headers = {
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "private, no-store",
        "Referrer-Policy": "no-referrer",
    }
    if grant.media_type != "application/pdf":
        headers["Content-Security-Policy"] = "default-src 'none'; sandbox"
    return FileResponse(
        grant.path,
        media_type=media_type,
        filename=grant.filename,
        content_disposition_type="inline" if inline else "attachment",
        headers=headers,
    )
