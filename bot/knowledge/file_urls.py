"""The URL a knowledge-base file is cited with: its ``index.url_templates`` URL, or its own.

A template's glob is matched against the same paths of the file as audience rules are
(:mod:`bot.knowledge.glob_paths`): its path inside the outermost folder ingested into the index
that holds it, then, when no glob matches that one, its path inside every other folder that
holds it, innermost first, up to the working directory or the config file's folder. The first
path a glob matches decides, and of the globs matching it the first in config order wins;
``{path}`` and ``{stem}`` are that path. So ``many/*.md`` written for ``citecast ingest docs``
links ``docs/many/x.md`` as ``many/x`` after ``citecast ingest docs/many`` too (it was matched
against ``x.md`` only, and the file went without a link, silently). A glob that gives no file
of a run and no other indexed file its URL is named in a warning (:meth:`RunTemplates.unused`).

A file's own URL (front matter ``url:`` or an HTML canonical link) wins when it is absolute;
a relative one is resolved against the template's URL, as a browser would.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urljoin

from bot.config import IndexSettings
from bot.config_url_templates import render_url_template
from bot.knowledge.audience_rules import RunRules
from bot.knowledge.glob_paths import matching_path
from bot.models import is_safe_url

__all__ = ["RunTemplates", "TemplateUrl", "page_url", "public_url", "template_url"]


@dataclass(frozen=True)
class TemplateUrl:
    """The ``index.url_templates`` entry that gives a file its URL: its ``glob``, the file's
    ``path`` it matched (what ``{path}`` and ``{stem}`` stand for) and the ``url`` (None when
    ``{stem}`` stands in the host and the stem is no host name label there)."""

    glob: str
    path: str
    url: str | None


def template_url(paths: Iterable[str], settings: IndexSettings) -> TemplateUrl | None:
    """The template of the first of ``paths`` (in the order of
    :func:`bot.knowledge.glob_paths.glob_paths`) that a glob matches, the first such glob in
    config order; None when no glob matches any."""
    for path in paths:
        for glob, template in settings.url_templates.items():
            if matching_path(glob, (path,)) is not None:
                name = path.rsplit("/", 1)[-1]
                stem = path.rsplit(".", 1)[0] if "." in name else path
                return TemplateUrl(glob, path, render_url_template(template, path, stem))
    return None


def public_url(path: str, settings: IndexSettings) -> str | None:
    """The URL the first ``index.url_templates`` glob matching ``path`` gives.

    ``{path}`` is ``path``, ``{stem}`` the same without extension; None too when ``{stem}``
    stands in the host and this file's is no host name there.
    """
    found = template_url((path,), settings)
    return found.url if found is not None else None


@dataclass(frozen=True)
class RunTemplates:
    """The ``index.url_templates`` globs that gave a file of one ingest run its URL (a file's
    own URL may still win over it), for :meth:`unused`."""

    used: set[str] = field(default_factory=set)

    def url(
        self, rules: RunRules, path: Path, rule_path: str, settings: IndexSettings
    ) -> str | None:
        """The template URL of one file of the run (``rule_path``: its path inside the run's
        root), its glob remembered as used."""
        found = template_url(rules.paths(path, rule_path), settings)
        if found is None:
            return None
        self.used.add(found.glob)
        return found.url

    def unused(
        self,
        rules: RunRules,
        settings: IndexSettings,
        indexed: Iterable[Path],
        roots: Sequence[Path],
    ) -> list[str]:
        """The globs, in config order, that gave no file of this run its URL nor would give
        one to another file of the index (``indexed``; those under this run's ``roots`` were
        just tried): a typo, a glob matching no path of any file, or one that a glob before it
        always wins over. A glob written for another ingested folder is no mistake."""
        unused = [glob for glob in settings.url_templates if glob not in self.used]
        for path in rules.others(indexed, roots):
            if not unused:
                break
            found = template_url(rules.paths(path, path.name), settings)
            if found is not None:
                unused = [glob for glob in unused if glob != found.glob]
        return unused


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
