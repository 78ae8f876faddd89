"""``GET /``: the chat page, named with the deployment's ``web.title`` and ``web.subtitle``.

The page is a shell: ``static/chat.js`` builds the chat inside ``<main data-citecast-page>``
and takes the title and subtitle from that element's data attributes, so the page shows the
deployment's name from the first paint. The widget gets the same two from ``/api/config``.
Each stylesheet and script is named with its version (``static/chat.js?v=…``, see
``web_asset_versions``), so no browser runs a copy an older release let it keep.
"""

from __future__ import annotations

import functools

import jinja2

from bot.connectors.web_asset_versions import AssetVersions, asset_versions


@functools.cache
def _template() -> jinja2.Template:
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("bot.connectors", "templates"),
        autoescape=True,  # the title and subtitle come from config: never markup
        auto_reload=False,
        keep_trailing_newline=True,
    )
    return environment.get_template("chat_page.html.j2")


def chat_page(
    title: str, subtitle: str, language: str = "", versions: AssetVersions | None = None
) -> str:
    """The chat page's HTML with ``title`` and ``subtitle`` (escaped), questions and answers
    marked as in ``language`` (``assistant.language``) when one is set, and its assets named
    with ``versions`` (by default this release's)."""
    return _template().render(
        title=title,
        subtitle=subtitle,
        language=language,
        asset=(versions or asset_versions()).url,
    )
