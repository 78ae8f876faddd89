"""citations.js (the superscript citations and their tooltips) loads right after sources.js."""

from __future__ import annotations

import re

from tests.connectors.web.conftest import WebHarness


async def test_page_and_widget_load_citations_right_after_sources(web: WebHarness) -> None:
    # citations.js takes its helpers from Citecast.sources, and answer_actions.js (after
    # plain_markdown.js) uses the weakNumbers it adds there
    page = (await web.client.get("/")).text
    scripts = re.findall(r'<script src="static/([a-z_]+)\.js\?v=[0-9a-f]+" defer>', page)
    assert scripts[scripts.index("sources") + 1] == "citations"
    widget = (await web.client.get("/widget.js")).text
    assert 'var modules = ["sources", "citations", "plain_markdown", "answer_actions",' in widget
    served = await web.client.get("/static/citations.js")
    assert served.status_code == 200
    assert served.headers["content-type"].startswith("text/javascript")
    assert "sources.decorate = decorate;" in served.text
