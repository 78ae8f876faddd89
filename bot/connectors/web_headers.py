"""The response headers of the web channel: its pages' content security policies, no caching.

The chat page may run its own scripts and post its own forms; a turn's share page (and the
page for an expired file link) runs no script at all and sends no referrer, so a shared link
never leaks through the pages it links to. Answers, votes and streams are never cached.
"""

from __future__ import annotations

PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none';"
        " form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
}
NO_STORE = {"Cache-Control": "no-store"}
STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
TURN_PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none';"
        " frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
