"""The URL a knowledge-base file is cited with: its ``index.url_templates`` URL, or its own.

A file's own URL (front matter ``url:`` or an HTML canonical link) wins when it is absolute;
a relative one is resolved against the template's URL, as a browser would.
"""

from __future__ import annotations

import fnmatch
from urllib.parse import urljoin

from bot.config import IndexSettings
from bot.config_url_templates import render_url_template
from bot.models import is_safe_url

__all__ = ["page_url", "public_url"]


def public_url(rule_path: str, settings: IndexSettings) -> str | None:
    """The URL of a published file from the first matching ``index.url_templates`` glob.

    ``{path}`` is the path inside the ingested folder, ``{stem}`` the same without extension;
    None too when ``{stem}`` stands in the host and this file's is no host name there.
    """
    for glob, template in settings.url_templates.items():
        if fnmatch.fnmatchcase(rule_path, glob):
            stem = rule_path.rsplit(".", 1)[0] if "." in rule_path.rsplit("/", 1)[-1] else rule_path
            return render_url_template(template, rule_path, stem)
    return None


def page_url(own: str | None, template_url: str | None) -> tuple[str | None, str | None]:
    """The URL a file is cited with, and a note when its own URL cannot be used.

    ``own`` (front matter or canonical link) wins when it is an absolute http(s) or mailto
    URL. A relative one is resolved against ``template_url`` (the ``index.url_templates``
    URL), as a browser resolves it against the page's address. Anything else would be dropped
    by :class:`bot.models.Source` and leave the citation without a link, so the template's
    URL (or none) is used and the note says why.
    """
    if not own or is_safe_url(own):
        return own or template_url, None
    joined = urljoin(template_url, own.strip()) if template_url else None
    if joined and is_safe_url(joined):
        return joined, None
    shown_url = own if len(own) <= 80 else own[:77] + "..."
    instead = (
        f"cited with {template_url} from index.url_templates"
        if template_url
        else "cited without a link (make it absolute, or add an index.url_templates glob)"
    )
    return template_url, f"url {shown_url!r} is not an absolute http(s) URL; {instead}"
