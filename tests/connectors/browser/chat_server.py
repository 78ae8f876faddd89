"""The part of a loopback citecast every scripted browser test serves alike.

The real chat page (its root given ``data-request-timeout`` / ``data-silence-timeout`` from the
query, so a test can wait a fraction of a second, not a minute), the real static files and
``widget.js``, and a host page embedding the widget between a link before it and one after it
(for focus order). A test's own server adds how the API answers: ``/api/config``,
``/api/conversations/…`` and ``/api/ask/stream``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from bot.connectors.web import STATIC_DIR
from bot.connectors.web_chat_page import chat_page

Handler = Callable[[Request], Awaitable[Response]]


def _timeouts(request: Request) -> str:
    """The ``data-*-timeout`` attributes the query asks for."""
    return "".join(
        f' data-{name}-timeout="{int(request.query_params[name])}"'
        for name in ("request", "silence")
        if name in request.query_params
    )


async def _page(request: Request) -> Response:
    html = chat_page("citecast", "Answers from the knowledge base.")
    return HTMLResponse(
        html.replace("data-citecast-page", "data-citecast-page" + _timeouts(request))
    )


async def _host(request: Request) -> Response:
    base = str(request.base_url).rstrip("/")
    return HTMLResponse(
        "<!doctype html><html lang='en'><head><title>Acme</title></head><body>"
        "<header><a href='#top'>Acme home</a></header><main><h1>Acme</h1></main>"
        f'<script src="{base}/widget.js" data-citecast{_timeouts(request)} async></script>'
        "<footer><a href='#contact'>Contact Acme</a></footer></body></html>"
    )


async def _widget(request: Request) -> Response:
    return Response((STATIC_DIR / "widget.js").read_bytes(), media_type="text/javascript")


async def _health(request: Request) -> Response:
    return JSONResponse({"status": "ok"})


def chat_app(*, config: Handler, conversation: Handler, stream: Handler) -> Starlette:
    """The chat page, widget and static files, with the API answered by the handlers given."""
    return Starlette(
        routes=[
            Route("/", _page),
            Route("/host", _host),
            Route("/widget.js", _widget),
            Route("/healthz", _health),
            Route("/api/config", config),
            Route("/api/ask/stream", stream),
            Route("/api/conversations/{conversation_id}", conversation),
            Mount("/static", app=StaticFiles(directory=STATIC_DIR)),
        ]
    )
