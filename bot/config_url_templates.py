"""The check of ``index.url_templates`` (glob -> public URL template), run when config loads.

A template that cannot give an absolute http(s) URL (``docs.example.com/{stem}.html``, an
``ftp://`` one) was accepted, ingest stored its URLs, and every answer then dropped them with a
warning per source: the citations lost their links without a word at start. A placeholder
other than ``{path}`` and ``{stem}`` would be left in every URL as written.

``{stem}`` may stand in the host (``https://{stem}.docs.example.com/``, one site per file),
``{path}`` may not (a file's path holds ``/``). A stem that is not one host label (``guides/setup``
would move the link to the host ``guides``) gives no URL: :func:`render_url_template`.
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlsplit

PLACEHOLDERS = ("{path}", "{stem}")
# one DNS label (RFC 1123): what a stem rendered into a host must be, so the link stays there
_HOST_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")
# a brace pair, or a lone brace: "{name}", "{stem", "}"
_BRACES = re.compile(r"\{[^{}]*\}|[{}]")


def url_template_problem(template: str) -> str | None:
    """Why ``template`` cannot be an ``index.url_templates`` value, or None when it can.

    It must be an absolute ``http://`` or ``https://`` URL with a host, in which only ``{stem}``
    may stand (a file's path holds ``/``, so ``{path}`` cannot; nor may a placeholder stand in
    the user name or port), without spaces or control characters, and its only placeholders
    are ``{path}`` and ``{stem}``.
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
    if "{path}" in parts.netloc:
        return f"{{path}} cannot be in the host (a path holds /); use {{stem}}: {shown!r}"
    if "{" in parts.netloc.lower().replace(host, "", 1):
        return f"a placeholder can stand only in the host, not the user or port: {shown!r}"
    return None


def render_url_template(template: str, path: str, stem: str) -> str | None:
    """``template`` with ``{path}`` and ``{stem}`` filled in (both URL-quoted), or None when
    ``{stem}`` stands in the host and ``stem`` is not one host label there.

    ``guides/setup`` in ``https://{stem}.docs.example.com/`` would give a link to the host
    ``guides``, and ``evil.example/x`` one to ``evil.example``: such a file gets no link.
    """
    url = template.replace("{path}", quote(path)).replace("{stem}", quote(stem))
    host = urlsplit(template).hostname or ""
    if "{stem}" in host:
        expected = host.replace("{stem}", stem.lower())
        if not _HOST_LABEL.fullmatch(stem) or urlsplit(url).hostname != expected:
            return None
    return url


def checked_url_templates(templates: dict[str, str]) -> dict[str, str]:
    """``templates`` unchanged, or ValueError naming the first bad one's glob and why."""
    for glob, template in templates.items():
        problem = url_template_problem(template)
        if problem is not None:
            raise ValueError(f"{glob!r}: {problem}")
    return templates
