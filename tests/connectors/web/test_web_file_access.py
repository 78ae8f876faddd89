"""Who ``/files/`` serves a valid token to, as the index stands now, and what the reading page
calls the document (``bot.connectors.web_file_access``, over the ``/files/{token}`` handler).

A token names the audience it was issued for; the file's audience is the index's, read at each
request: a file its audience may not read now, or one the index dropped although it is still in
an ingested folder, is the uniform 404. A file served from ``web.file_roots`` alone (no index
speaks for it) is served on its token, unless the index exists and cannot be read.

The same rule decides whether a stored answer may still be shared or given to the model as
history (``visible_now``, through ``web_turn_page.visible_answer``).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bot.connectors.web_file_access import as_now, visible_now
from bot.connectors.web_files import file_response
from bot.connectors.web_turn_page import shareable_answer, visible_answer
from bot.connectors.web_viewer_links import IndexedFiles
from bot.filetokens import FileSigner
from bot.models import Answer, Citation, Source
from bot.store import Turn
from tests.connectors.web.viewer_kb import PUBLIC, SECRET, STAFF, build_linked_kb, viewer_app


async def get(app: Starlette, token: str, **params: str) -> httpx.Response:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://viewer.test") as client:
        return await client.get(f"/files/{token}", params=params)


def roots_app(signer: FileSigner, files: IndexedFiles) -> Starlette:
    async def route(request: Request) -> Response:
        download = request.query_params.get("download") == "1"
        token = str(request.path_params["token"])
        return file_response(signer, token, download=download, files=files)

    return Starlette(routes=[Route("/files/{token}", route)])


async def test_a_token_is_served_only_to_an_audience_the_index_allows_now(
    tmp_path: Path,
) -> None:
    linked = build_linked_kb(tmp_path)
    app = viewer_app(linked)
    # a public link to a file that is (now) for staff: as if signed before it became private
    for params in ({}, {"download": "1"}):
        refused = await get(app, linked.token("docs/private.md", PUBLIC), **params)
        assert (refused.status_code, refused.json()) == (404, {"error": "not found"})
        staff = await get(app, linked.token("docs/private.md", STAFF), **params)
        assert staff.status_code == 200 and "The staff-only runbook." in staff.text
    # a file in the served folder that the index does not hold (never ingested: an image)
    image = await get(app, linked.token("docs/diagram.png", STAFF))
    assert (image.status_code, image.json()) == (404, {"error": "not found"})


async def test_the_reading_page_is_named_by_the_documents_title(tmp_path: Path) -> None:
    linked = build_linked_kb(tmp_path)
    app = viewer_app(linked)
    guide = await get(app, linked.token("docs/guide.md"))
    policy = await get(app, linked.token("policies/policy.html"))
    assert "<title>Guide</title>" in guide.text
    assert '<span class="cc-name">guide.md</span>' in guide.text  # the file the bar downloads
    assert "<title>Richtlinie</title>" in policy.text


def served_folder(tmp_path: Path) -> tuple[FileSigner, str]:
    """``notes/`` served from ``web.file_roots`` alone, and a token for a file in it."""
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "today.md").write_text("# Today\n\nStand-up at nine.\n", encoding="utf-8")
    signer = FileSigner(SECRET, "", 600, roots=[notes])
    source = Source(id="today", path=str(notes / "today.md"), filename="today.md", kind="file")
    token = signer.token_for(source, PUBLIC)
    assert token is not None
    return signer, token


async def test_a_file_of_web_file_roots_alone_is_served_on_its_token(tmp_path: Path) -> None:
    signer, token = served_folder(tmp_path)
    page = await get(roots_app(signer, IndexedFiles(tmp_path / "no-index.db")), token)
    assert page.status_code == 200 and "Stand-up at nine." in page.text
    assert "<title>today.md</title>" in page.text  # no index, no title: the file name


async def test_an_index_that_cannot_be_read_serves_nothing(tmp_path: Path) -> None:
    signer, token = served_folder(tmp_path)
    broken = tmp_path / "index.db"
    broken.write_bytes(b"this is not an SQLite database, and it could hold any file" * 100)
    refused = await get(roots_app(signer, IndexedFiles(broken)), token)
    assert (refused.status_code, refused.json()) == (404, {"error": "not found"})


def test_a_stored_citation_of_a_file_no_longer_readable_is_shown_as_removed(
    tmp_path: Path,
) -> None:
    linked = build_linked_kb(tmp_path)

    def cited(relative: str) -> Citation:
        path = linked.kb / relative
        source = Source(id=relative, title="Notes", path=str(path), filename=path.name)
        return Citation(n=1, source=source, source_number=1, quote="runbook")

    # stored while public, with its passage, a public URL and a deep link: all of it must go
    private = cited("docs/private.md")
    private = dataclasses.replace(
        private,
        source=dataclasses.replace(private.source, url="https://docs.example/p", text="runbook"),
        deep_link="https://docs.example/p#:~:text=runbook",
    )
    kept = [
        cited("docs/setup.md"),  # still public
        Citation(n=2, source=Source(id="web", url="https://docs.example/x"), source_number=2),
        cited("../outside/secret.md"),  # never served from /files/: left as it was
    ]
    answer = Answer("Claim.[^1]", (private, *kept))
    now = as_now(answer, linked.files, linked.signer, PUBLIC)
    gone = now.citations[0]
    assert gone.source.title == "Notes (no longer available)"
    assert (gone.source.url, gone.source.path, gone.source.text) == (None, None, None)
    assert (gone.quote, gone.deep_link) == (None, None)
    assert list(now.citations[1:]) == kept
    # for staff it is readable: the answer is returned as it was
    staff = as_now(answer, linked.files, linked.signer, STAFF)
    assert staff is answer
    assert as_now(answer, linked.files, None, PUBLIC) is answer  # no signer: no links at all


def test_a_stored_source_is_visible_now_only_while_the_index_still_allows_it(
    tmp_path: Path,
) -> None:
    linked = build_linked_kb(tmp_path)
    elsewhere = tmp_path / "elsewhere.md"  # outside every ingested folder: no index speaks
    elsewhere.write_text("# Elsewhere\n", encoding="utf-8")

    def stored(path: Path, audience: tuple[str, ...] = ("public",)) -> Source:
        return Source(id=path.name, path=str(path), audience=audience)

    public, staff = visible_now(linked.files, PUBLIC), visible_now(linked.files, STAFF)
    # stored as public, private (staff) in the index now
    assert not public(stored(linked.kb / "docs/private.md")) and staff(
        stored(linked.kb / "docs/private.md")
    )
    assert public(stored(linked.kb / "docs/setup.md"))
    # in an ingested folder but not in the index (dropped, or never ingested): no one
    assert not staff(stored(linked.kb / "docs/diagram.png"))
    assert not staff(stored(linked.kb / "docs/gone.md"))
    # outside everything ingested, and sources without a file: the stored audience decides
    assert public(stored(elsewhere)) and not public(stored(elsewhere, ("staff",)))
    assert public(Source(id="web", url="https://docs.example/x"))
    assert not public(Source(id="record", kind="record", audience=("staff",)))
    # stored for staff, public in the index now: still not for the public
    assert not public(stored(linked.kb / "docs/setup.md", ("staff",)))


def test_an_answer_that_read_a_file_made_private_is_neither_visible_nor_shareable(
    tmp_path: Path,
) -> None:
    linked = build_linked_kb(tmp_path)
    setup = Source(id="setup", path=str(linked.kb / "docs/setup.md"))
    private = Source(id="private", path=str(linked.kb / "docs/private.md"))  # stored as public
    answer = Answer("Claim.[^1]", (Citation(n=1, source=setup, source_number=1),))
    # it cites only the public page, but its answerer read the one made private since
    registry = {"numbered": [], "evidence": [private.to_json()]}
    read = Turn(2, "c", "web", "Q?", answer.to_json(), registry, "done", 0.0)
    assert visible_answer(read, PUBLIC) is not None  # the stored audience alone: visible
    assert visible_answer(read, PUBLIC, linked.files) is None
    assert visible_answer(read, STAFF, linked.files) is not None
    # a later answer citing only the public page: its history read the private file
    later = Turn(3, "c", "web", "And?", answer.to_json(), None, "done", 0.0)
    assert shareable_answer(later, PUBLIC, [read, later]) is not None
    assert shareable_answer(later, PUBLIC, [read, later], linked.files) is None
