"""``GET /files/{token}``: signed downloads of cited files that have no public URL.

Every refusal is the same 404 with the same body, whether the token was tampered with, expired,
points outside the knowledge base, names a file that is gone, or names one its audience may no
longer read (made private, or dropped from the index, since the link was signed: see
:mod:`bot.connectors.web_file_access`), so the endpoint cannot be used to learn what exists on
the server. A knowledge-base file is served only while it holds the bytes the index read
(:mod:`bot.knowledge.indexed_bytes`): edited in place since, it may name a narrower audience
and hold text that audience's link must not show, and the index judges it only at the next
``citecast ingest``. A ``web.file_roots`` file outside everything ingested has no index to
judge it and is served as it is. What is served of a checked file is read from the descriptor
its check opened, as it was checked (:mod:`bot.knowledge.judged_file`,
:mod:`bot.connectors.web_judged_response`), never from its path again: a save landing after
the check is not served. Files are served with ``nosniff`` and a sandboxing CSP, and
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
files it names only when the linked file passes the rules of a citation link and is unchanged
since it was indexed (:mod:`bot.connectors.web_viewer_links`); otherwise they are text. The
web channel's route makes the page off the event loop (:func:`served_file`): some Markdown
takes mistune seconds, and must not stall the server's other requests
(:mod:`bot.connectors.web_viewer_renders`).
"""

from __future__ import annotations

import asyncio
import logging
import re

from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response

from bot.connectors.web_file_access import Readable, readable, why_unreadable
from bot.connectors.web_file_viewer import (
    MAX_VIEW_BYTES,
    VIEWER_CSP,
    LinkTarget,
    ViewedFile,
    read_for_view,
    view_of,
    viewer_kind,
    viewer_page,
)
from bot.connectors.web_judged_response import JudgedFileResponse
from bot.connectors.web_viewer_links import FileIndex, ViewerLinks
from bot.connectors.web_viewer_renders import ViewerRenders
from bot.filetokens import FileGrant, FileSigner, FileTokenError
from bot.knowledge.judged_file import JudgedFile

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
    language: str = "",
) -> Response:
    """What a token grants: the reading page of a Markdown, text or HTML file, else the file
    itself (``download``: always the file, as an attachment); or the uniform 404.

    ``files`` (the indexed files) says who may read the file now: a valid token is served only
    while its audience may (:func:`bot.connectors.web_file_access.readable`: not after the file
    was made private or dropped from the index), and a file it holds only while its bytes are
    the ones it read. It also lets the reading page link the files its document links.
    ``language`` is the document's when the file declares none
    (:func:`bot.connectors.web_file_viewer.viewer_page`).

    This renders the reading page in the caller's thread: the web channel's route uses
    :func:`served_file`, which renders it off the event loop."""
    viewable = _viewable(signer, token, files, download)
    if isinstance(viewable, Response):
        return viewable
    grant, now, kind, judged = viewable
    assert signer is not None  # a grant is only ever checked by one
    try:
        viewed = _read(grant, kind, judged)
    except OSError:
        return not_found()  # gone (or unreadable) since verify: the same answer as any refusal
    links = ViewerLinks(grant, signer, files)
    page = viewer_page(viewed, links=links, title=_title(now), language=language)
    return _viewer_response(page)


async def served_file(
    signer: FileSigner | None,
    token: str,
    *,
    files: FileIndex,
    renders: ViewerRenders,
    download: bool = False,
    language: str = "",
) -> Response:
    """:func:`file_response`, with the reading page made off the event loop: the file read and
    the page sanitized in worker threads, a Markdown file rendered by ``renders`` (once per
    file version, a few at a time), so no file can stall the server's other requests. The
    token is checked in a worker thread too: the first request for a version of a large file
    hashes all of it (:mod:`bot.knowledge.indexed_bytes`)."""
    viewable = await asyncio.to_thread(_viewable, signer, token, files, download)
    if isinstance(viewable, Response):
        return viewable
    grant, now, kind, judged = viewable
    assert signer is not None  # a grant is only ever checked by one
    try:
        viewed = await asyncio.to_thread(_read, grant, kind, judged)
    except OSError:
        return not_found()  # gone (or unreadable) since verify: the same answer as any refusal
    markup = await renders.markup(grant.path, viewed)
    links: LinkTarget = ViewerLinks(grant, signer, files)
    page = await asyncio.to_thread(
        viewer_page, viewed, links=links, title=_title(now), markup=markup, language=language
    )
    return _viewer_response(page)


def _viewable(
    signer: FileSigner | None, token: str, files: FileIndex, download: bool
) -> Response | tuple[FileGrant, Readable, str, JudgedFile | None]:
    """A grant to show as a reading page (with the reader's view of it now, the page's kind
    and the file opened by its check, if it was checked), or the response that answers the
    request without one: the 404, or the file itself."""
    checked = _checked(signer, token, files)
    if checked is None:
        return not_found()
    grant, now, judged = checked
    kind = viewer_kind(grant.media_type)
    if kind is None or download:
        return _file_itself(grant, download, judged)
    return grant, now, kind, judged


def _read(grant: FileGrant, kind: str, judged: JudgedFile | None) -> ViewedFile:
    """The file of ``grant`` as the reading page shows it: read from the descriptor its check
    opened (then closed), so the page shows the bytes that were checked, never a later save;
    by its path when it was not checked (a ``web.file_roots`` file no index judges)."""
    if judged is None:
        return read_for_view(grant.path, grant.filename, kind)
    with judged:
        data = judged.read_at(0, MAX_VIEW_BYTES + 1)
        return view_of(data, judged.found, grant.filename, kind)


def _checked(
    signer: FileSigner | None, token: str, files: FileIndex
) -> tuple[FileGrant, Readable, JudgedFile | None] | None:
    """The grant of a valid token whose audience may read its file now, logged, with the
    file opened by the check of its bytes (None: an unindexed ``web.file_roots`` file, not
    checked); else None."""
    if signer is None:
        return None
    try:
        grant = signer.verify(token)
    except FileTokenError:
        return None
    now = readable(files, grant.path, grant.audience)
    if now is None:
        # made private, or not (or no longer) in the index: the same answer as a file that
        # never existed; the log says which
        why = _REFUSALS[why_unreadable(files, grant.path)]
        log.info("refused %s: %s", logged(grant.filename), why.format(audience=_shown(grant)))
        return None
    judged = None
    if now.source is not None:
        judged = files.judged(grant.path)
        if judged is None:
            # the index judged other bytes: edited in place, the file may be private now
            log.info("refused %s: %s", logged(grant.filename), _CHANGED)
            return None
    log.info("serving %s to audience %s", logged(grant.filename), _shown(grant))
    return grant, now, judged


# What the log says of a refused file (``why_unreadable``): a file ingest never indexed (an SVG
# in an ingested folder) was never readable, so "no longer" would send one looking for a change.
_REFUSALS = {
    "gone": "it is no longer a file on disk",
    "private": "audience {audience} may no longer read it",
    "unindexed": "it is not in the index (never indexed, or dropped from it since)",
}
_CHANGED = "it changed since it was indexed (judged again by the next `citecast ingest`)"


def _title(now: Readable) -> str | None:
    return None if now.source is None else now.source.title


def _file_itself(grant: FileGrant, download: bool, judged: JudgedFile | None) -> Response:
    media_type = grant.media_type
    inline = media_type in _INLINE_TYPES and not download
    if media_type.startswith("text/"):
        media_type += "; charset=utf-8"
    headers = dict(_HEADERS)
    if grant.media_type != "application/pdf":
        headers["Content-Security-Policy"] = "default-src 'none'; sandbox"
    if judged is not None:
        # sent from the descriptor that was checked, as checked (web_judged_response)
        return JudgedFileResponse(
            judged,
            grant.path,
            shown=logged(grant.filename),
            media_type=media_type,
            filename=grant.filename,
            content_disposition_type="inline" if inline else "attachment",
            headers=headers,
            refusal=not_found(),
        )
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


def _viewer_response(page: str) -> Response:
    headers = {**_HEADERS, "Content-Security-Policy": VIEWER_CSP}
    return HTMLResponse(page, headers=headers)
