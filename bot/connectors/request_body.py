"""Reading a request body on a public URL no further than a cap.

A webhook's or an event's signature can only be checked on the whole body, so an unsigned body
must not be taken in whole first: neither a declared Content-Length nor a chunked body of any
size is trusted.
"""

from __future__ import annotations

from starlette.requests import Request


async def read_capped(request: Request, max_bytes: int) -> bytes | None:
    """The request body, or None as soon as it is known to be longer than ``max_bytes``."""
    declared = request.headers.get("content-length", "")
    # ASCII digits only: isdecimal() alone also takes other scripts' digits ("٣"), and
    # isdigit() takes "²", which int() refuses (that was a 500)
    if declared.isascii() and declared.isdecimal() and int(declared) > max_bytes:
        return None
    body = bytearray()
    async for chunk in request.stream():
        body.extend(chunk)
        if len(body) > max_bytes:
            return None
    return bytes(body)
