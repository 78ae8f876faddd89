"""Relative links and the language of a file shown on the ``/files/`` reading page.

Over HTTP (httpx against the ``/files/{token}`` handler given the knowledge index): a relative
link to a file the viewer may open becomes that file's signed link, its fragment kept, and
leads there; every other relative link, hostile or private or missing, is text alike; images
are their alt text; the page says its language and the document's.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urljoin

import httpx
import pytest

from bot.connectors.web_file_viewer import ViewedFile, render_document, viewer_page
from bot.connectors.web_viewer_lang import html_language
from bot.language_tags import declared_language
from bot.models import Answer
from tests.connectors.web.conftest import CannedAnswerer, build_harness
from tests.connectors.web.viewer_kb import STAFF, build_linked_kb, viewer_app

ANCHOR = re.compile(r"<a\b([^>]*)>(.*?)</a>", re.S)


def anchors(page: str) -> dict[str, str]:
    """Each link's text -> its attributes as written."""
    return {text: attrs for attrs, text in ANCHOR.findall(page)}


def href(attrs: str) -> str | None:
    found = re.search(r'href="([^"]*)"', attrs)
    return None if found is None else found.group(1).replace("&amp;", "&")


async def fetch(tmp_path: Path, *relatives: str) -> list[httpx.Response]:
    linked = build_linked_kb(tmp_path)
    transport = httpx.ASGITransport(app=viewer_app(linked))
    async with httpx.AsyncClient(transport=transport, base_url="http://viewer.test") as client:
        return [await client.get(f"/files/{linked.token(r)}") for r in relatives]


async def test_a_relative_link_to_a_served_file_opens_it_at_its_fragment(tmp_path: Path) -> None:
    linked = build_linked_kb(tmp_path)
    transport = httpx.ASGITransport(app=viewer_app(linked))
    async with httpx.AsyncClient(transport=transport, base_url="http://viewer.test") as client:
        page_url = f"http://viewer.test/files/{linked.token('docs/guide.md')}"
        guide = await client.get(page_url)
        links = anchors(guide.text)
        setup, policy = href(links["the setup"]), href(links["the policy"])
        assert setup is not None and policy is not None
        # a sibling /files/ link (relative to the page, so a proxy's path prefix stays)
        assert re.fullmatch(r"[\w-]+\.[\w-]+#linux", setup), setup
        assert re.fullmatch(r"[\w-]+\.[\w-]+#retention", policy), policy
        opened_setup = await client.get(urljoin(page_url, setup).split("#")[0])
        opened_policy = await client.get(urljoin(page_url, policy).split("#")[0])
    assert opened_setup.status_code == 200
    assert "Install the package and run the setup wizard." in opened_setup.text
    assert '<h2 id="linux">Linux</h2>' in opened_setup.text  # where #linux lands
    assert opened_policy.status_code == 200
    assert '<h2 id="retention">Aufbewahrung</h2>' in opened_policy.text  # the fragment's place
    # and the linked HTML file links back the same way
    back = href(anchors(opened_policy.text)["the guide"])
    assert back is not None and re.fullmatch(r"[\w-]+\.[\w-]+", back)


async def test_hostile_private_and_missing_links_lose_their_href_alike(tmp_path: Path) -> None:
    [guide] = await fetch(tmp_path, "docs/guide.md")
    links = anchors(guide.text)
    refused = [
        "the private notes",
        "the gone page",
        "up and out",
        "encoded",
        "absolute",
        "file scheme",
        "a folder",
        "with a query",
        "backslashes",
        "nul",
        "double encoded",
        "script",
        "a symlink out",
    ]
    for text in refused:
        # the text stays, with nothing that tells a private file from a missing one
        assert links[text] == ' rel="noopener noreferrer nofollow"', (text, links[text])
    assert href(links["this page"]) == "#guide"
    assert href(links["the site"]) == "https://docs.example/guide"
    assert href(links["its host"]) == "//docs.example/"  # another site, as an https link is
    body = guide.text
    for leaked in ("passwd", "secret", "outside", "private.md", "gone.md", "%2e", "file:"):
        assert leaked not in body, leaked


async def test_a_private_file_is_linked_for_the_audience_that_may_read_it(tmp_path: Path) -> None:
    linked = build_linked_kb(tmp_path)
    transport = httpx.ASGITransport(app=viewer_app(linked))
    async with httpx.AsyncClient(transport=transport, base_url="http://viewer.test") as client:
        page_url = f"http://viewer.test/files/{linked.token('docs/guide.md', STAFF)}"
        guide = await client.get(page_url)
        private = href(anchors(guide.text)["the private notes"])
        assert private is not None
        opened = await client.get(urljoin(page_url, private))
    assert "The staff-only runbook." in opened.text
    # outside the served roots stays unlinked even for staff, though it is indexed
    assert href(anchors(guide.text)["up and out"]) is None


async def test_images_are_their_alt_text_and_load_nothing(tmp_path: Path) -> None:
    [guide] = await fetch(tmp_path, "docs/guide.md")
    # no <img> at all: one without a source would show the browser's broken-image icon
    assert "<img" not in guide.text
    assert re.findall(r'<span class="cc-img-alt">[^<]*</span>', guide.text) == [
        '<span class="cc-img-alt">the diagram</span>',
        '<span class="cc-img-alt">far away</span>',
    ]


def test_an_image_without_alt_text_is_dropped_and_alt_text_stays_text() -> None:
    markup = (
        '<p>A<img src="a.png">B<img alt="" src="b.png">C<img alt="  ">'
        'D<img alt=\'x "<b>y</b>" &amp; z\' title="t" width="3"/>E</p>'
    )
    rendered = render_document(ViewedFile("page.html", "html", markup, truncated=False))
    assert rendered == (
        '<p>ABCD<span class="cc-img-alt">x &quot;&lt;b&gt;y&lt;/b&gt;&quot; &amp; z</span>E</p>'
    )
    markdown = ViewedFile("a.md", "markdown", "See ![a diagram](a.png) and ![](b.png).\n", False)
    assert (
        render_document(markdown) == '<p>See <span class="cc-img-alt">a diagram</span> and .</p>\n'
    )


async def test_the_page_says_its_language_and_the_documents(tmp_path: Path) -> None:
    guide, policy = await fetch(tmp_path, "docs/guide.md", "policies/policy.html")
    for page in (guide, policy):
        assert '<html lang="en">' in page.text  # the viewer's own words (bar, notes)
    assert '<main class="cc-doc" lang="de">' in policy.text  # the root's, not the comment's
    assert '<main class="cc-doc">' in guide.text  # Markdown declares none: the page's


def test_a_declared_language_is_used_only_when_it_is_a_language_tag() -> None:
    assert html_language('<html lang="pt-BR"><p>x</p>') == "pt-BR"
    assert html_language('<?xml version="1.0"?><html xml:lang="fr">') == "fr"
    assert html_language("<html lang=en_US>") == "en-US"
    assert html_language("<p lang=de>a paragraph is not the document</p>") is None
    assert html_language("no markup at all") is None
    for hostile in ('"><script>x()</script>', "de onload=x()", "", " ", "x" * 40, "12"):
        assert declared_language(hostile) is None, hostile
    page = viewer_page(ViewedFile("x.html", "html", '<html lang="de&quot;>x">hi', False))
    assert '<main class="cc-doc">' in page  # a broken tag is no language


def test_without_the_index_relative_links_are_text() -> None:
    page = viewer_page(ViewedFile("a.md", "markdown", "[b](b.md) [c](#c) [d](/d)\n", False))
    assert "<a>b</a>" in page.replace(' rel="noopener noreferrer nofollow"', "")
    assert 'href="#c"' in page and "/d" not in page


def test_markdown_headings_get_the_ids_links_to_them_use() -> None:
    text = (
        "# Größe & Maße\n\n## Set *up*\n\n## Set up\n\n## `make serve`\n\n"
        "## Set up\n\n## !!!\n\n<h2 id=mine>Own</h2>\n"
    )
    rendered = render_document(ViewedFile("a.md", "markdown", text, False))
    assert re.findall(r"<h\d([^>]*)>", rendered) == [
        ' id="größe--maße"',
        ' id="set-up"',
        ' id="set-up-1"',
        ' id="make-serve"',
        ' id="set-up-2"',
        "",  # nothing to name it by
        ' id="mine"',  # the document's own
    ]


async def test_the_web_channel_links_the_files_a_viewed_document_links(tmp_path: Path) -> None:
    # the served app (WebConnector), not the bare handler: its /files/ route is given the
    # deployment's index, so the guide's link to its sibling opens it
    linked = build_linked_kb(tmp_path)  # ingests into tmp_path/index.db, the harness's index.path
    services, client = build_harness(tmp_path, CannedAnswerer(Answer("unused")), linked.signer)
    async with client:
        guide = await client.get(f"/files/{linked.token('docs/guide.md')}")
        setup = href(anchors(guide.text)["the setup"])
        assert setup is not None and setup.endswith("#linux"), guide.text
        opened = await client.get(f"/files/{setup.split('#')[0]}")
        private = anchors(guide.text)["the private notes"]
    services.store.close()
    assert opened.status_code == 200
    assert "Install the package and run the setup wizard." in opened.text
    assert href(private) is None  # a public viewer's page never links the staff-only file


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("---\nlang: de\ntitle: Urlaub\n---\n# Urlaub\n\nZwanzig Tage.\n", ' lang="de"'),
        ('+++\nlanguage = "pt_BR"\n+++\nOlá.\n', ' lang="pt-BR"'),
        ("---\nlang: [de, fr]\n---\nA list is no language.\n", ""),
        ("---\nlang: '\"><b>'\n---\nHostile.\n", ""),
        ("---\nlang: en\n---\nThe page's own.\n", ""),
        ("No front matter.\n", ""),
        ("---\nlang: de\naudience: [staff\n---\nUnreadable front matter.\n", ""),
    ],
)
def test_a_markdown_files_front_matter_says_its_language(text: str, said: str) -> None:
    page = viewer_page(ViewedFile("note.md", "markdown", text, False))
    assert f'<main class="cc-doc"{said}>' in page, page
