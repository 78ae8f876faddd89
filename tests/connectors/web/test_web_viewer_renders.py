"""The reading page renders Markdown off the event loop, once per file version.

A Markdown file that mistune takes long over (``'[a](' * 500000`` takes it some 25 s) stalled
every request of the server while its page was made, ``/healthz`` too. Over the real app: a
render held on an Event (a slow render, made deterministic) runs in a worker thread while
``/healthz`` answers; a second request for the same file version waits for the same render and
shares it; a later one gets the kept render; an edited file renders afresh.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import httpx
import pytest

from bot.connectors.app import build_app
from bot.connectors.web_file_viewer import ViewedFile, document_markup
from bot.connectors.web_viewer_renders import ViewerRenders
from bot.filetokens import FileSigner
from bot.models import Source
from bot.runtime import Services
from bot.store import Store
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, make_settings, passage

SECRET = b"viewer-renders-secret-0123456789"
PUBLIC = frozenset({"public"})


class HeldRender:
    """``document_markup`` that waits for ``release`` (set by the test) before it renders."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()
        self.calls = 0

    def __call__(self, viewed: ViewedFile) -> str:
        self.calls += 1
        self.started.set()
        # a safety net for a failing test only: the test sets release itself
        if not self.release.wait(60):
            raise RuntimeError("never released")
        return document_markup(viewed)


class WatchedRenders(ViewerRenders):
    """ViewerRenders that tells the test when ``markup`` has been asked ``expected`` times."""

    def __init__(self, render: HeldRender, expected: int) -> None:
        super().__init__(render)
        self.asked = 0
        self.expected = expected
        self.all_asked = asyncio.Event()

    async def markup(self, path: Path, viewed: ViewedFile) -> str:
        self.asked += 1
        if self.asked == self.expected:
            self.all_asked.set()
        return await super().markup(path, viewed)


def served(tmp_path: Path, renders: ViewerRenders) -> tuple[Services, httpx.AsyncClient, str]:
    """The real app with ``renders``, and the local URL of the signed link to ``kb/slow.md``."""
    kb = tmp_path / "kb"
    kb.mkdir()
    doc = kb / "slow.md"
    doc.write_text("# Slow\n\nA [link](b.md) and *more* text.\n", encoding="utf-8")
    signer = FileSigner(SECRET, "", 600, roots=[kb])
    settings = make_settings(tmp_path)
    services = Services(
        settings=settings,
        store=Store(settings.store.path),
        assistant=CannedAnswerer(cited_answer(passage(1))),
    )
    services.signer = signer
    app = build_app(services, connectors=[], shutdown_grace=0.1)
    app.state.web.viewer_renders = renders
    token = signer.token_for(Source(id="slow", path=str(doc), kind="file"), PUBLIC)
    assert token is not None
    client = httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://citecast.test"
    )
    return services, client, f"/files/{token}"


async def test_healthz_answers_while_a_page_renders_and_one_render_serves_both_requests(
    tmp_path: Path,
) -> None:
    held = HeldRender()
    renders = WatchedRenders(held, expected=2)
    services, client, url = served(tmp_path, renders)
    async with client:
        first = asyncio.create_task(client.get(url))
        # the render has begun, in its worker thread, and is held there
        assert await asyncio.to_thread(held.started.wait, 60)
        health = await client.get("/healthz")
        assert health.status_code == 200 and health.json()["status"] == "ok"
        second = asyncio.create_task(client.get(url))
        await renders.all_asked.wait()  # the second request waits for the same version
        assert not first.done() and not second.done()
        held.release.set()
        pages = await asyncio.gather(first, second)
        assert [page.status_code for page in pages] == [200, 200]
        assert pages[0].text == pages[1].text
        assert '<h1 id="slow">Slow</h1>' in pages[0].text
        assert held.calls == 1 and renders.renders == 1
        # asked again later: the kept render
        again = await client.get(url)
        assert again.text == pages[0].text and held.calls == 1
    services.store.close()


async def test_an_edited_file_renders_afresh_and_only_markdown_is_rendered(tmp_path: Path) -> None:
    held = HeldRender()
    held.release.set()
    renders = ViewerRenders(held)
    services, client, url = served(tmp_path, renders)
    async with client:
        before = await client.get(url)
        (tmp_path / "kb" / "slow.md").write_text("# Edited\n\nNew words here.\n", encoding="utf-8")
        after = await client.get(url)
    services.store.close()
    assert "Slow" in before.text and "New words here." in after.text
    assert held.calls == 2
    plain = ViewedFile("a.txt", "text", "<b>x</b>\n", truncated=False, size=9, mtime_ns=1)
    assert await renders.markup(Path("/a.txt"), plain) == "<pre>&lt;b&gt;x&lt;/b&gt;\n</pre>"
    assert held.calls == 2


@pytest.mark.parametrize(("kept_chars", "rendered_again"), [(10, 2), (250, 1), (1000, 0)])
async def test_kept_renders_stay_within_their_bound(kept_chars: int, rendered_again: int) -> None:
    renders = ViewerRenders(lambda viewed: viewed.text, kept_chars=kept_chars)

    def version(n: int) -> ViewedFile:
        return ViewedFile("a.md", "markdown", "x" * 100 + str(n), False, size=101, mtime_ns=n)

    for n in range(5):
        assert await renders.markup(Path("/kb/a.md"), version(n)) == version(n).text
    assert renders.kept_total <= kept_chars
    # kept: the latest that fit (none when one alone is larger than the bound)
    count = renders.renders
    await renders.markup(Path("/kb/a.md"), version(4))
    await renders.markup(Path("/kb/a.md"), version(0))
    assert renders.renders == count + rendered_again
