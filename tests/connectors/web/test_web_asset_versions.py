"""Every URL the pages and the widget load a static file from carries that file's content hash,
so no browser runs a copy an older release (no ``Cache-Control`` on ``/static/*``) let it keep."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

from bot.connectors.web_asset_versions import STATIC_DIR, read_versions
from bot.connectors.web_widget_script import VERSIONS_MARK, widget_script, with_versions
from tests.connectors.web.conftest import (
    CannedAnswerer,
    WebHarness,
    build_harness,
    cited_answer,
    passage,
)
from tests.connectors.web.test_web_api_ask import SCRIPTS

# the URLs a release that sent no Cache-Control for /static/* handed out: a browser may still
# hold them, unasked, for a tenth of the file's age
CACHED_BY_OLDER_RELEASES = {"/static/chat.js", "/static/chat.css"}
BROWSER = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
# the chat's scripts, in the order the page and the widget load them
MODULES = SCRIPTS
WIDGET_FILES = ["chat.css", *(f"{name}.js" for name in MODULES)]


def named_assets(page: str) -> list[str]:
    """The static files a page loads, as written (``static/chat.js?v=…``)."""
    return re.findall(r'(?:src|href)="((?:\.\./|/)?static/[^"]+)"', page)


def sha(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()[:12]


async def test_the_chat_page_names_no_asset_an_older_release_let_browsers_keep(
    web: WebHarness,
) -> None:
    page = await web.client.get("/")
    assets = {"/" + src.lstrip("/").split("#")[0] for src in named_assets(page.text)}
    assert assets and not assets & CACHED_BY_OLDER_RELEASES


async def test_each_asset_url_of_the_chat_page_names_the_hash_of_what_it_serves(
    web: WebHarness,
) -> None:
    page = await web.client.get("/")
    urls = named_assets(page.text)
    assert len(urls) == 10  # chat.css and the nine modules
    for url in urls:
        served = await web.client.get(urljoin("http://citecast.test/", url))
        assert served.status_code == 200, url
        assert urlsplit(url).query == f"v={sha(served.content)}", url


async def test_the_shared_answer_and_not_found_pages_name_a_versioned_stylesheet(
    tmp_path: Path,
) -> None:
    answerer = CannedAnswerer(cited_answer(passage(1), text="Claim one is true.[^1]\n"))
    services, client = build_harness(tmp_path, answerer)
    expected = f"../static/chat.css?v={sha((STATIC_DIR / 'chat.css').read_bytes())}"
    async with client:
        asked = await client.post("/api/ask", json={"question": "Is it true?"})
        pages = [asked.json()["share_url"], "/turns/1-forged", "/files/forged.token"]
        for url in pages:
            page = await client.get(url, headers=BROWSER)
            assert named_assets(page.text) == [expected], url
    services.store.close()


async def test_the_widget_loads_each_module_and_its_stylesheet_by_its_hash(
    web: WebHarness,
) -> None:
    widget = (await web.client.get("/widget.js")).text
    assert VERSIONS_MARK not in widget
    literal = re.search(r"var versions = (\{.*?\});", widget)
    assert literal is not None
    versions = json.loads(literal.group(1))
    for name in WIDGET_FILES:
        served = await web.client.get(f"/static/{name}")
        assert versions[name] == sha(served.content), name
    # every URL it loads is built from them, the stylesheet's and the Trusted Types list's too
    assert 'base + "/static/" + name + (version ? "?v="' in widget
    assert '"/static/' not in widget.replace('base + "/static/" + name', "")


async def test_a_changed_module_changes_the_widget_and_its_etag(tmp_path: Path) -> None:
    copy = tmp_path / "static"
    shutil.copytree(STATIC_DIR, copy)
    before = widget_script(read_versions(copy))
    (copy / "chat.js").write_text("window.Citecast.chat = {};\n", "utf-8")
    after = widget_script(read_versions(copy))
    assert after.body != before.body and after.etag != before.etag
    assert sha(b"window.Citecast.chat = {};\n").encode() in after.body


async def test_widget_js_has_one_place_for_the_versions_and_serving_it_needs_that() -> None:
    # as written it is an empty object: a site's own copy (data-api) loads them unversioned
    source = (STATIC_DIR / "widget.js").read_text("utf-8")
    assert source.count(VERSIONS_MARK) == 1
    with pytest.raises(ValueError, match="asset-versions"):
        with_versions(source.replace(VERSIONS_MARK, "{}"), read_versions(STATIC_DIR))


@pytest.mark.parametrize("query", ["", "?v=000000000000", "?v=old&x=1"])
async def test_an_old_or_unversioned_url_still_gets_the_current_file(
    web: WebHarness, query: str
) -> None:
    # a cached page, a cached widget.js or a copy of it from another release names these
    served = await web.client.get(f"/static/chat.js{query}")
    assert served.status_code == 200
    assert served.content == (STATIC_DIR / "chat.js").read_bytes()
    assert served.headers["cache-control"] == "no-cache"
