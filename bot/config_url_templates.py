"""The check of ``index.url_templates`` (glob -> public URL template), run when config loads.

A template that cannot give an absolute http(s) URL (``docs.example.com/{stem}.html``, an
``ftp://`` one) was accepted, ingest stored its URLs, and every answer then dropped them with a
warning per source: the citations lost their links without a word at start. A placeholder
other than ``{path}`` and ``{stem}`` would be left in every URL as written.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

PLACEHOLDERS = ("{path}", "{stem}")
# a brace pair, or a lone brace: "{name}", "{stem", "}"
_BRACES = re.compile(r"\{[^{}]*\}|[{}]")


def url_template_problem(template: str) -> str | None:
    """Why ``template`` cannot be an ``index.url_templates`` value, or None when it can.

    It must be an absolute ``http://`` or ``https://`` URL whose host is written out (a file's
    path holds ``/``, so ``{path}`` cannot stand in the host), without spaces or control
    characters, and its only placeholders are ``{path}`` and ``{stem}``.
    """
    shown = template if len(template) <= 80 else template[:77] + "..."
    for found in _BRACES.findall(template):
        if found not in PLACEHOLDERS:
            what = f"unknown placeholder {found}" if len(found) > 1 else f"a lone {found!r}"
            return f"{what} in {shown!r}; use {{path}} or {{stem}}"
    if any(ch.isspace() or ord(ch) < 0x20 or ch == "\x7f" for ch in template):
        return f"must not contain spaces or control characters (write %20): {shown!r}"
    try:
        parts = urlsplit(template)
        host = parts.hostname
    except ValueError as exc:
        return f"not a URL ({exc}): {shown!r}"
    if parts.scheme.lower() not in ("http", "https") or not host:
        return f"must be an absolute http:// or https:// URL with a host, not {shown!r}"
    if "{" in parts.netloc:
        return f"the host must be written out, not a placeholder: {shown!r}"
    return None


def checked_url_templates(templates: dict[str, str]) -> dict[str, str]:
    """``templates`` unchanged, or ValueError naming the first bad one's glob and why."""
    for glob, template in templates.items():
        problem = url_template_problem(template)
        if problem is not None:
            raise ValueError(f"{glob!r}: {problem}")
    return templates
