"""The reading page of a text or HTML file is made in a worker thread, never on the event loop.

Making it splits off the file's front matter; when that once took 22 s on a hostile file, one
page view stalled every request of the server for as long. Held on an Event, the markup of a
text file is being made while the event loop goes on running.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from bot.connectors import web_viewer_renders
from bot.connectors.web_file_viewer import ViewedFile, document_markup
from bot.connectors.web_viewer_renders import ViewerRenders


class HeldMarkup:
    """``document_markup`` that waits for ``release`` (set by the test) before it runs."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()
        self.threads: list[threading.Thread] = []

    def __call__(self, viewed: ViewedFile) -> str:
        self.threads.append(threading.current_thread())
        self.started.set()
        # a safety net for a failing test only (on the event loop it would block the test)
        self.release.wait(5)
        return document_markup(viewed)


@pytest.mark.parametrize(
    ("name", "kind", "text", "markup"),
    [
        ("a.txt", "text", "<b>x</b>\n", "<pre>&lt;b&gt;x&lt;/b&gt;\n</pre>"),
        ("a.html", "html", "---\naudience: staff\n---\n<p>x</p>", "<p>x</p>"),
    ],
)
async def test_a_text_or_html_page_is_made_while_the_event_loop_runs(
    monkeypatch: pytest.MonkeyPatch, name: str, kind: str, text: str, markup: str
) -> None:
    held = HeldMarkup()
    monkeypatch.setattr(web_viewer_renders, "document_markup", held)
    renders = ViewerRenders()
    viewed = ViewedFile(name, kind, text, truncated=False, size=len(text), mtime_ns=1)
    making = asyncio.ensure_future(renders.markup(Path(f"/{name}"), viewed))
    ticks = 0
    while not held.started.is_set() and ticks < 500:
        await asyncio.sleep(0.01)
        ticks += 1
    await asyncio.sleep(0.05)  # the loop still runs, and the markup is still held
    assert held.started.is_set() and not making.done()
    held.release.set()
    assert await making == markup
    assert held.threads != [threading.main_thread()]
    assert renders.renders == 0  # only Markdown goes through the kept renders
