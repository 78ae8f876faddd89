"""``{stem}`` in an ``index.url_templates`` host (``https://{stem}.docs.example.com/``).

Found on upgrade: the new check refused the template outright, though the release before made
working links from it. Allowed again, a stem that is not one host label gives the file no link:
``guides/setup`` would have moved the link to the host ``guides``, and a file named
``evil.example/x.md`` inside the folder one to ``evil.example``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.config_url_templates import render_url_template
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.file_urls import public_url

TEMPLATE = "https://{stem}.docs.example.com/"


@pytest.mark.parametrize(
    ("path", "url"),
    [
        ("setup.md", "https://setup.docs.example.com/"),
        ("Release-Notes.md", "https://Release-Notes.docs.example.com/"),
        ("guides/setup.md", None),  # the host would be "guides"
        ("evil.example/x.md", None),  # the host would be "evil.example"
        ("a.b.md", None),  # two labels: no longer the one site per file
        ("-x.md", None),
        ("caf\u00e9.md", None),  # quoted, "caf%C3%A9" is no host name
        ("user@evil.md", None),
    ],
)
def test_a_stem_in_the_host_must_be_one_host_label(path: str, url: str | None) -> None:
    settings = IndexSettings(url_templates={"*": TEMPLATE})
    assert public_url(path, settings) == url


def test_a_stem_outside_the_host_is_rendered_as_before() -> None:
    template = "https://docs.example.com/{stem}.html?from={path}"
    rendered = render_url_template(template, "guides/set up.md", "guides/set up")
    assert rendered == "https://docs.example.com/guides/set%20up.html?from=guides/set%20up.md"


def test_ingest_links_a_top_level_file_and_not_one_in_a_subfolder(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    (kb / "guides").mkdir(parents=True)
    (kb / "setup.md").write_text("# Setup\n\nHeron setup steps.\n", encoding="utf-8")
    (kb / "guides" / "setup.md").write_text("# Guide\n\nEgret guide steps.\n", encoding="utf-8")
    settings = IndexSettings(path=str(tmp_path / "i.db"), url_templates={"**": TEMPLATE})
    assert ingest([kb], settings).indexed == 2
    index = KnowledgeIndex(settings.path)
    try:
        assert [s.url for s in index.search("heron")] == ["https://setup.docs.example.com/"]
        assert [s.url for s in index.search("egret")] == [None]
    finally:
        index.close()
