"""Audiences: who a viewer is, and who may read a document.

A viewer is the ``public`` group plus the viewer's own groups. Public documents are meant for
everyone, so a viewer's groups widen what they see and never replace ``public``: a staff member
sees public pages as well as staff ones. Every place that turns a list of groups into a viewer's
audience (the ``ask`` command, the Assistant's registry, index search, record lookup) goes
through :func:`viewer_audience`.

A document's audience is written by hand (front matter ``audience:``, the HTML meta tag
``citecast:audience``, ``citecast ingest --audience``) and read by :func:`document_audience`.
Reading it is strict where reading a viewer's is lenient: a blank viewer group only shows less,
but a blank document audience (an unset shell variable in ``--audience "$GROUP"``,
``audience: []``) must not turn a private document into a public one, so it is refused and
``public`` has to be written out. A name holding ``|`` is refused too: the index keeps a
document's groups joined by ``|``, so ``"staff|public"`` would have been read back as two
groups, one of them ``public``. A viewer's group holding one is dropped (it could only match
a document for both halves), never split.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.errors import ValidationError
from bot.public_group import PUBLIC, public_in_another_case

_PUBLIC_HINT = f"write {PUBLIC} if everyone may read it"
SEPARATOR = "|"  # joins a document's groups in the index (bot.knowledge.schema)
_LIST_HINT = "separate groups with commas"


def viewer_audience(groups: Iterable[str] = ()) -> frozenset[str]:
    """``groups`` (blank names and names holding ``|`` dropped, a bare string taken as one
    group) plus ``public``."""
    if isinstance(groups, str):
        groups = (groups,)
    return frozenset(g for g in groups if g.strip() and SEPARATOR not in g) | {PUBLIC}


def document_audience(value: object, label: str = "audience") -> tuple[str, ...]:
    """The groups a document is for: ``"staff"``, ``"staff, hr"`` or a list of names.

    Strings are split at commas; names are stripped and kept once, in order. A value that
    names no group or holds an empty name (``""``, ``"staff,"``, ``[]``, ``[""]``, ``[null]``)
    is a ValidationError, and so are a name holding ``|`` (``"staff|public"``), ``public`` in
    another case (``Public``, ``PUBLIC``: :mod:`bot.public_group`) and anything but names (a
    YAML number counts as a name). Messages name the value as ``label`` (where it was
    written, e.g. ``--audience``).
    """
    items = value if isinstance(value, list | tuple) else [value]
    names = [name.strip() for item in items for name in _names(item, label)]
    if not any(names):
        # a key left blank (YAML null) reads as "is blank", not as Python's None
        written = "is blank and" if value is None else repr(value)
        raise ValidationError(f"{label} {written} names no group; {_PUBLIC_HINT}")
    if not all(names):
        raise ValidationError(f"empty group name in {label} {value!r}; {_PUBLIC_HINT}")
    if any(SEPARATOR in name for name in names):
        raise ValidationError(f"{SEPARATOR} in a group name in {label} {value!r}; {_LIST_HINT}")
    for name in names:
        # a group of that name to an older release, or everyone: either reading could be wrong
        problem = public_in_another_case(name, label)
        if problem:
            raise ValidationError(problem)
    return tuple(dict.fromkeys(names))


def _names(item: object, label: str) -> list[str]:
    """The names in one entry: a string split at commas, a number, or a blank (None)."""
    if isinstance(item, str):
        return item.split(",")
    if item is None:  # YAML's value of a key or list entry left blank
        return [""]
    if isinstance(item, int) and not isinstance(item, bool):
        return [str(item)]
    raise ValidationError(f"{label} entries must be group names, not {item!r}")
