"""Names for the web source list's links that would otherwise read alike out of context.

A screen reader's list of links shows each link by its name alone (WCAG 2.4.9). In a source
list two kinds read alike: a record's action link, named by its table's ``action_label`` ("See
plan") whatever the record, and the title links of two passages of one document ("Getting
started with citecast" twice). Each such link gets an ``aria-label`` that begins with the words
it shows (WCAG 2.5.3: a speech user says what they see) and goes on with what tells it apart: an
action link the title of its record ("See plan: citecast Team"); a title link its file name,
page and section, then, while those still read the same, the start of its quote, and failing
that its number ("source 2"). A link no other link of the list reads like keeps its own words.

Pure functions of one answer's listed forms; the web renderer escapes the names it writes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from renderers.base import CitationForm
from renderers.distinct import snippet
from renderers.escaping import one_line


def titled(form: CitationForm) -> bool:
    """Whether the entry of ``form`` shows its title as a link (a web page or a download)."""
    return form.kind in ("link", "download")


def title_link_names(
    forms: Sequence[CitationForm], linked: Callable[[CitationForm], bool]
) -> dict[int, str]:
    """The names of the title links (those ``linked`` says are links) that share their title
    with another in ``forms``, by citation number; the others have none here."""
    groups: dict[str, list[CitationForm]] = {}
    for form in forms:
        if titled(form) and linked(form):
            groups.setdefault(form.title, []).append(form)
    names: dict[int, str] = {}
    for group in groups.values():
        if len(group) > 1:
            names.update(_told_apart(group))
    return names


def action_link_names(
    forms: Sequence[CitationForm], linked: Callable[[CitationForm], bool]
) -> dict[int, str]:
    """The names of the record action links (those ``linked`` says are shown), by citation
    number: the action's label and the record's title, and the number of an entry whose
    label and title another one has too."""
    named = {
        form.n: _joined(f"{form.record.action.label}: {form.title}")
        for form in forms
        if form.record is not None and form.record.action is not None and linked(form)
    }
    return _numbered_where_same(named)


def _told_apart(group: list[CitationForm]) -> dict[int, str]:
    """Names for entries sharing one title: as few words added as tell all of them apart."""
    where = {form.n: _joined(form.title, _filename(form), form.detail) for form in group}
    if len(set(where.values())) == len(where):
        return where
    quoted = {
        form.n: _joined(where[form.n], snippet(form.quote) if form.quote else "") for form in group
    }
    if len(set(quoted.values())) == len(quoted):
        return quoted
    return {n: _joined(name, f"source {n}") for n, name in where.items()}


def _numbered_where_same(names: dict[int, str]) -> dict[int, str]:
    counts: dict[str, int] = {}
    for name in names.values():
        counts[name] = counts.get(name, 0) + 1
    return {
        n: _joined(name, f"source {n}") if counts[name] > 1 else name for n, name in names.items()
    }


def _filename(form: CitationForm) -> str:
    # shown beside a download's title when it is not the title itself (renderers.web)
    if form.kind == "download" and form.filename and form.filename != form.title:
        return f"({form.filename})"
    return ""


def _joined(*parts: str) -> str:
    """The non-empty ``parts`` on one line, comma separated (a file name in parentheses follows
    the title without one)."""
    text = ""
    for part in (one_line(p) for p in parts if p):
        if not text:
            text = part
        else:
            text += f" {part}" if part.startswith("(") else f", {part}"
    return text
