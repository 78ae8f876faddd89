"""Discourse: an answer citing more than nine files without public URLs.

Each footnote carries its own upload placeholder (``citecast-upload://n``), and
``citecast-upload://1`` is also the start of ``citecast-upload://10``: every footnote must still
link (or name) its own file, each file is uploaded once, and no link is nested in another or
followed by a stray digit. Driven through the real connector against the loopback fake forum,
with uploads taken, refused by type, or refused and linked with signed download links, and with
the answer split over several posts (configured ``max_post_length``, or the forum's lower limit
learned from its refusal).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

import pytest

from bot.models import Source
from tests.connectors.discourse_harness import PUBLIC, Harness, footnotes, forum, opened_harness
from tests.fakes.discourse_api import FakeDiscourse

__all__ = ["forum"]

FILES = 13
# 22 citations: the 13 files, then a second passage of each of the first nine (numbers 14-22)
CITATIONS = 22
SIGNED = "https://citecast.example/files/"
SPLIT_LIMIT = 1500


@pytest.fixture(autouse=True)
def bot_moderates_the_category(forum: FakeDiscourse) -> None:
    # the answer takes several posts: exempt from max_consecutive_replies (as a category group
    # moderator), which test_discourse_consecutive covers
    forum.category_moderators = {PUBLIC: {"citecast"}}


def file_sources(tmp_path: Path) -> list[Source]:
    """Numbered in order: 1-13 each a file of its own, 14-22 the files 1-9 again."""
    sources: list[Source] = []
    for n in range(1, CITATIONS + 1):
        k = n if n <= FILES else n - FILES
        path = tmp_path / f"doc{k:02d}.md"
        path.write_text(f"# Handbook part {k}\n\nOnly part {k} says this.\n")
        sources.append(
            Source(
                id=f"f{n}",
                title=f"Handbook part {k}",
                path=str(path),
                filename=path.name,
                media_type="text/markdown",
                kind="file",
                section=None if n <= FILES else f"Second passage {k}",
            )
        )
    return sources


ANSWER = "\n\n".join(f"Fact number {n} is in the handbook [{n}]." for n in range(1, CITATIONS + 1))


class StaticSigner:
    """Stands in for FileSigner: a predictable signed link per source."""

    def url_for(self, source: Source, audience: frozenset[str]) -> str | None:
        return f"{SIGNED}{source.id}"

    def turn_key(self, turn_id: int) -> str:
        return f"{turn_id}-signed"


def check_posts(
    raws: list[str], sources: list[Source], links_to: Mapping[str, tuple[str, str] | None]
) -> None:
    """Every footnote of every post names its own file, with ``links_to[source.id]`` as its
    only link (None: no link, the name alone), and no placeholder, nested link or stray digit
    is left."""
    names = {str(s.filename) for s in sources}
    defined: set[int] = set()
    for raw in raws:
        assert "citecast-upload://" not in raw
        refs, links = footnotes(raw)
        assert set(refs) <= set(links), raw  # each post defines what it cites
        # the forum numbers a post's footnotes by first reference: a definition it shows under
        # another number than the answer's begins with the answer's ("\[14\] Handbook …")
        shown = {key: i for i, key in enumerate(dict.fromkeys(refs), 1)}
        for key, entries in links.items():
            source = sources[int(key) - 1]
            [line] = re.findall(rf"^\[\^{key}\]: (.*)$", raw, re.MULTILINE)
            number = "" if shown[key] == int(key) else f"\\[{key}\\] "
            assert line.startswith(number), line
            line = line.removeprefix(number)
            # "Title: [name|attachment](…)", "Title: name" or "Title (name)"
            assert re.match(re.escape(str(source.title)) + "[: ]", line), line
            assert [name for name in names if name in line] == [source.filename], line
            expected = links_to[source.id]
            assert entries == ([] if expected is None else [expected]), line
            defined.add(int(key))
        # every URL in the post is one whole parsed link: none nested, none with a digit after
        urls = [url for entries in links.values() for _, url in entries]
        assert raw.count("upload://") == sum(url.startswith("upload://") for url in urls), raw
        assert raw.count(SIGNED) == sum(url.startswith(SIGNED) for url in urls), raw
        assert not re.search(r"\)\d", raw), raw
    assert defined == set(range(1, CITATIONS + 1))


async def answer(h: Harness, tmp_path: Path) -> tuple[list[Source], list[str]]:
    sources = file_sources(tmp_path)
    h.script(sources, ANSWER)
    first = h.forum.new_topic("Handbook", "What does the handbook say?", category_id=PUBLIC)
    await h.deliver(first)
    return sources, [str(post["raw"]) for post in h.forum.bot_posts()]


async def split_answer(
    forum: FakeDiscourse, tmp_path: Path, *, signed: bool = False
) -> tuple[list[Source], list[str]]:
    """The answer's posts, split at ``SPLIT_LIMIT`` with room for all 13 files (``signed``:
    with a file signer, as when ``web.public_base_url`` is set)."""
    async with opened_harness(
        forum,
        tmp_path,
        capabilities={"max_files": 20},
        max_post_length=SPLIT_LIMIT,
        max_consecutive_replies=0,
    ) as h:
        if signed:
            h.connector.services.signer = StaticSigner()
        return await answer(h, tmp_path)


async def test_each_footnote_links_its_own_uploaded_file(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    forum.authorized_extensions = (*forum.authorized_extensions, "md")
    sources, raws = await split_answer(forum, tmp_path)
    assert len(raws) > 1  # split over several posts
    uploads = {u.filename: u.short_url for u in forum.uploads}
    assert Counter(u.filename for u in forum.uploads) == {f"doc{k:02d}.md": 1 for k in range(1, 14)}
    assert len(set(uploads.values())) == FILES
    links_to = {s.id: (f"{s.filename}|attachment", uploads[str(s.filename)]) for s in sources}
    check_posts(raws, sources, links_to)


async def test_each_footnote_names_its_own_refused_file(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    # the forum's default authorized extensions are images only: every .md file is refused
    sources, raws = await split_answer(forum, tmp_path)
    assert len(raws) > 1
    assert forum.uploads == []
    check_posts(raws, sources, {s.id: None for s in sources})


async def test_each_footnote_links_its_own_signed_file(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    # web.public_base_url set: a refused file gets a signed download link instead of its name
    sources, raws = await split_answer(forum, tmp_path, signed=True)
    assert len(raws) > 1
    assert forum.uploads == []
    check_posts(raws, sources, {s.id: (str(s.filename), f"{SIGNED}{s.id}") for s in sources})


async def test_the_first_ten_files_split_again_after_a_refusal(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    # The forum's own limit is lower than configured: the first post is refused as too long,
    # and the answer rendered again and split (discourse_refit), with its uploads resolved anew.
    # Ten files (the renderer's default max_files), the rest named.
    forum.authorized_extensions = (*forum.authorized_extensions, "md")
    forum.max_post_length = SPLIT_LIMIT
    async with opened_harness(forum, tmp_path, max_consecutive_replies=0) as h:
        sources, raws = await answer(h, tmp_path)
    assert len(raws) > 1
    refused = [s for _, path, s in forum.requests if path == "/posts.json" and s == 422]
    assert refused == [422]
    uploads = {u.filename: u.short_url for u in forum.uploads}
    assert set(uploads) == {f"doc{k:02d}.md" for k in range(1, 11)}
    links_to: dict[str, tuple[str, str] | None] = {
        s.id: (f"{s.filename}|attachment", uploads[str(s.filename)])
        if str(s.filename) in uploads
        else None
        for s in sources
    }
    check_posts(raws, sources, links_to)
