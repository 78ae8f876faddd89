"""The reading page's costly step, rendering a Markdown file, kept off the event loop.

mistune is pure Python, and some Markdown costs it far more than prose of the same size
(``'[a](' * 500000``, 2 MB, takes it some 25 s). Rendered inside the request, one such file in
the knowledge base would stall every other request of the server (``/healthz`` included) for
as long. So :class:`ViewerRenders`, one per web channel:

- renders in a worker thread (the event loop keeps answering; the thread shares the GIL, so
  other requests are slowed a little, never stopped);
- renders at most :data:`MAX_RENDERS` files at a time; more wait, as coroutines (no thread
  held while waiting);
- renders each file version once: a request for a version being rendered waits for that same
  render and shares its result, and the result is kept for later requests, in a small LRU
  bounded by total characters (:data:`KEPT_CHARS`). A version is the file's resolved path,
  size and modification time (``ViewedFile.mtime_ns``), so an edited file renders afresh.

What is kept is the document's markup before sanitizing
(:func:`bot.connectors.web_file_viewer.document_markup`): the same for every viewer. The
per-viewer step, sanitizing it with the signed links of this viewer's token, runs per request,
in a worker thread too (it is linear and fast, but a 2 MB document still takes a moment).
Plain text and HTML cost little to make (their front matter split off, then an escape): they
are made per request, in a worker thread too, and only Markdown goes through the kept renders.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from bot.connectors.web_file_viewer import ViewedFile, document_markup

MAX_RENDERS = 2
"""How many Markdown files are rendered at the same time (the machine may have two cores)."""
KEPT_CHARS = 32 * 1024 * 1024
"""How many characters of rendered markup are kept, over all files (about 32 MB of ASCII)."""

Version = tuple[str, str, int | None, int | None]
"""(resolved path, kind, size, modification time in ns): one version of one file."""


def version_of(path: Path, viewed: ViewedFile) -> Version | None:
    """The version ``viewed`` was read from, or None when it cannot be told (then its render
    is not kept: an unknown version could be an old one)."""
    if viewed.size is None or viewed.mtime_ns is None:
        return None
    return (str(path), viewed.kind, viewed.size, viewed.mtime_ns)


class ViewerRenders:
    """Renders the markup of viewed files off the event loop, each version once, a few at a
    time, and keeps the latest (see the module docstring).

    ``render`` makes one file's markup (:func:`document_markup`; a test gives a slower one).
    """

    def __init__(
        self,
        render: Callable[[ViewedFile], str] = document_markup,
        *,
        at_once: int = MAX_RENDERS,
        kept_chars: int = KEPT_CHARS,
    ) -> None:
        self._render = render
        self._slots = asyncio.Semaphore(at_once)
        self._kept_chars = kept_chars
        self._kept: OrderedDict[Version, str] = OrderedDict()
        self._kept_total = 0
        self._running: dict[Version, asyncio.Future[str]] = {}
        self.renders = 0
        """How many renders were started (a version asked for again is not rendered again)."""

    @property
    def kept_total(self) -> int:
        """How many characters of markup are kept now (at most ``kept_chars``)."""
        return self._kept_total

    @property
    def running(self) -> int:
        """How many file versions are being rendered (or wait for a slot) right now."""
        return len(self._running)

    async def markup(self, path: Path, viewed: ViewedFile) -> str:
        """The markup of ``viewed`` (read from ``path``): kept, shared with a render of the
        same version already under way, or rendered now in a worker thread."""
        if viewed.kind != "markdown":
            # linear (front matter split off, then an escape), but 2 MB still takes a moment
            return await asyncio.to_thread(document_markup, viewed)
        version = version_of(path, viewed)
        if version is None:
            return await self._rendered(viewed)
        kept = self._kept.get(version)
        if kept is not None:
            self._kept.move_to_end(version)
            return kept
        running = self._running.get(version)
        if running is None:
            running = asyncio.ensure_future(self._render_and_keep(version, viewed))
            self._running[version] = running
            running.add_done_callback(lambda done: self._settled(version, done))
        # shielded: one waiting request that goes away does not cancel the others' render
        return await asyncio.shield(running)

    def _settled(self, version: Version, done: asyncio.Future[str]) -> None:
        self._running.pop(version, None)
        if not done.cancelled():
            done.exception()  # retrieved: every waiter may have gone before it failed

    async def _render_and_keep(self, version: Version, viewed: ViewedFile) -> str:
        markup = await self._rendered(viewed)
        self._keep(version, markup)
        return markup

    async def _rendered(self, viewed: ViewedFile) -> str:
        async with self._slots:
            self.renders += 1
            return await asyncio.to_thread(self._render, viewed)

    def _keep(self, version: Version, markup: str) -> None:
        if len(markup) > self._kept_chars:
            return  # larger than everything kept together: it would only push all else out
        earlier = self._kept.pop(version, None)
        if earlier is not None:
            self._kept_total -= len(earlier)
        self._kept[version] = markup
        self._kept_total += len(markup)
        while self._kept_total > self._kept_chars:
            _, dropped = self._kept.popitem(last=False)
            self._kept_total -= len(dropped)
