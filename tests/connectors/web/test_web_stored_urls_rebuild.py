"""How a stored citation is moved to its file's current URL (bot.connectors.web_stored_urls):
its deep links rebuilt on the new URL (a PDF's page, each marker's own quote), a file the viewer
may not read now left as stored, and the lookup of a file in a real index."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from bot.connectors.web_stored_urls import IndexedUrls, relinked, with_current_urls
from bot.deeplinks import deep_link
from bot.knowledge import ingest
from bot.knowledge.index import KnowledgeIndex
from bot.models import Answer, Citation, Occurrence, Source
from tests.connectors.web.conftest import make_settings

OLD = "https://docs.example.com/setup.html"
NEW = "https://docs.example.com/guides/setup.html"
PUBLIC = frozenset({"public"})


@dataclass
class FakeUrls:
    """The index as a dict: cited source id -> the passage the index holds now."""

    now: dict[str, Source]
    asked: list[str] = field(default_factory=list)

    def current(self, source: Source) -> Source | None:
        self.asked.append(source.id)
        return self.now.get(source.id)


def page(url: str | None, audience: tuple[str, ...] = ("public",)) -> Source:
    return Source(id="setup.md#2", title="Setup", url=url, path="/kb/setup.md", audience=audience)


def cited(source: Source, *quotes: str) -> Citation:
    first = quotes[0] if quotes else None
    occurrences = tuple(Occurrence(q, deep_link(source, q), 0.9) for q in quotes)
    return Citation(
        n=1,
        source=source,
        source_number=1,
        quote=first,
        deep_link=deep_link(source, first),
        occurrences=occurrences if len(quotes) > 1 else (),
    )


def test_each_markers_deep_link_is_rebuilt_on_the_new_url() -> None:
    old = cited(page(OLD), "Open the Devices page.", "Choose Add printer.")
    moved = relinked(old, NEW)
    assert moved.source.url == NEW
    assert moved.deep_link == f"{NEW}#:~:text=Open%20the%20Devices%20page."
    assert [o.deep_link for o in moved.occurrences] == [
        f"{NEW}#:~:text=Open%20the%20Devices%20page.",
        f"{NEW}#:~:text=Choose%20Add%20printer.",
    ]
    assert [(o.quote, o.support) for o in moved.occurrences] == [
        (o.quote, o.support) for o in old.occurrences
    ]


def test_a_pdf_opens_at_its_page_on_the_new_url_and_without_one_there_is_no_deep_link() -> None:
    pdf = Source(
        id="manual.pdf#4",
        url="https://docs.example.com/manual.pdf",
        path="/kb/manual.pdf",
        media_type="application/pdf",
        page=7,
    )
    old = Citation(n=1, source=pdf, source_number=1, deep_link=deep_link(pdf))
    moved = relinked(old, "https://docs.example.com/v2/manual.pdf")
    assert moved.deep_link == "https://docs.example.com/v2/manual.pdf#page=7"
    unlinked = relinked(old, None)
    assert unlinked.source.url is None and unlinked.deep_link is None


def test_only_a_file_the_viewer_may_read_now_moves_to_its_new_url() -> None:
    answer = Answer("Set it up.[^1]", (cited(page(OLD), "Open the Devices page."),))
    private = FakeUrls({"setup.md#2": page(NEW, audience=("board",))})
    assert with_current_urls(answer, private, PUBLIC) is answer
    same = FakeUrls({"setup.md#2": page(OLD)})
    assert with_current_urls(answer, same, PUBLIC) is answer
    moved = with_current_urls(answer, FakeUrls({"setup.md#2": page(NEW)}), PUBLIC)
    assert moved.citations[0].source.url == NEW


def test_sources_without_a_file_are_not_looked_up_and_each_file_once() -> None:
    web_result = Source(id="web-1", url="https://example.org/news")
    twice = cited(page(OLD), "Open the Devices page.")
    answer = Answer(
        "A.[^1] B.[^2] C.[^3]",
        (
            Citation(n=1, source=web_result, source_number=1),
            twice,
            Citation(n=3, source=twice.source, source_number=3),
        ),
    )
    urls = FakeUrls({"setup.md#2": page(NEW)})
    moved = with_current_urls(answer, urls, PUBLIC)
    assert urls.asked == ["setup.md#2"]
    assert [c.source.url for c in moved.citations] == [web_result.url, NEW, NEW]
    assert moved.citations[0] is answer.citations[0]


def test_the_index_lookup_finds_the_file_by_its_passage_or_its_first_one(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "setup.md").write_text(f"---\nurl: {NEW}\n---\n# Setup\n\nThe Devices page.\n")
    (kb / "other.md").write_text("# Other\n\nNothing here.\n")
    settings = make_settings(tmp_path)
    urls = IndexedUrls(settings.index.path)
    setup = str((kb / "setup.md").resolve())
    assert urls.current(Source(id="kb/setup.md#1", url=OLD, path=setup)) is None  # no index
    ingest([kb], settings.index)
    index = KnowledgeIndex(settings.index.path)
    [hit] = index.search("Devices")
    [other] = index.search("Nothing")
    assert hit.path == setup and hit.chunk == 1
    stored = replace(hit, url=OLD)
    found = urls.current(stored)
    assert found is not None and found.url == NEW
    # a passage the file no longer has (it was chunked anew): the file's first one
    relpath = hit.id.rpartition("#")[0]
    later = urls.current(replace(stored, id=f"{relpath}#9"))
    assert later is not None and later.url == NEW
    # an id naming another file's passage, a record's id, no path: not this file's URL
    assert urls.current(replace(stored, id=other.id)) is None
    assert urls.current(replace(stored, id="record:42")) is None
    assert urls.current(replace(stored, path=None)) is None
