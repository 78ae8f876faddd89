"""The audience a document's front matter names, however its key is written.

Hugo lower-cases every front matter key, so to Hugo ``Audience: staff``, ``AUDIENCE: staff``
and TOML's ``[Params]`` / ``audience = "staff"`` are ``audience`` and ``params.audience``;
read only as ``audience`` in lower case, such a page was indexed as public. Keys are matched
whatever their case, at the top of the front matter and in ``params``; when several name an
audience, the file gets the groups that all of them allow (none: it is skipped with the
reason). A key that is a near miss of ``audience`` (``audiences``, ``audience_groups``,
``Audiance``, ``citecast_audience``, ``ａｕｄｉｅｎｃｅ`` in full-width letters) is no key
citecast reads, but its author plainly meant to name who may read the file: the file is
skipped with a reason naming the key, never indexed for everyone.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping
from typing import Any

from bot.errors import ValidationError
from bot.knowledge.audience import document_audience
from bot.knowledge.audience_rules import narrower
from bot.knowledge.document import Unreadable

AUDIENCE = "audience"
_PARAMS = "params"
# What a key may hold besides letters and still be read as one word ("audience_groups")
_SEPARATORS = re.compile(r"[\s_\-.:]+")
# "citecast_audience", "x-audience": the audience key with a prefix meant for a tool
_PREFIXES = ("citecast", "x")


def audience_from(value: object, label: str = AUDIENCE) -> tuple[str, ...]:
    """A document's own audience (front matter ``audience:``, the HTML meta tag) as groups.

    Read by :func:`bot.knowledge.audience.document_audience`; a blank or empty one makes the
    file Unreadable (skipped with the reason) rather than public by mistake.
    """
    try:
        return document_audience(value, label)
    except ValidationError as exc:
        raise Unreadable(str(exc)) from None


def _edits(word: str, other: str) -> int:
    """How many letters must be added, removed, replaced or swapped with the next one to turn
    ``word`` into ``other`` (optimal string alignment distance)."""
    rows = [list(range(len(other) + 1))]
    for i, letter in enumerate(word, 1):
        row = [i]
        for j, wanted in enumerate(other, 1):
            cost = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (letter != wanted))
            if i > 1 and j > 1 and letter == other[j - 2] and word[i - 2] == wanted:
                cost = min(cost, rows[-2][j - 2] + 1)
            row.append(cost)
        rows.append(row)
    return rows[-1][-1]


def is_audience(key: str) -> bool:
    """Whether ``key`` is ``audience`` as Hugo reads keys: in any case (around spaces too)."""
    return key.strip().lower() == AUDIENCE


def is_near_miss(key: str) -> bool:
    """Whether ``key`` (not ``audience`` in any case) was plainly meant to name an audience:
    it starts with ``audience`` as a word (``audiences``, ``audience_groups``), is the key
    with a tool's prefix (``citecast:audience``), or is one typo from it (``audiance``).
    ``target_audience`` is a theme's own key, not a misspelling, and ``ambience`` another
    word. Letters are read as shown (NFKC): ``ａｕｄｉｅｎｃｅ`` from a CJK input method is
    the key to its author, no key to Hugo or to citecast."""
    word = _SEPARATORS.sub("", unicodedata.normalize("NFKC", key).lower())
    if word == AUDIENCE:
        return not is_audience(key)  # "audi-ence"
    if word.startswith(AUDIENCE) or word in (prefix + AUDIENCE for prefix in _PREFIXES):
        return True
    return abs(len(word) - len(AUDIENCE)) <= 1 and _edits(word, AUDIENCE) <= 1


def is_tag_near_miss(name: str) -> bool:
    """Whether an HTML meta tag's ``name`` or ``property`` (lower case), not
    ``citecast:audience``, was plainly meant as it: ``citecast`` and then ``audience`` or a
    near miss of it, whatever separates the words or the tool's name (``citecast:audiences``,
    ``citecast:audiance``, ``citecast_audience``, ``cite-cast:audience``, full-width
    ``citecast：audience``). A tag without the prefix (``audience``, ``dc.audience``) is
    another vocabulary's, not citecast's."""
    if name == f"citecast:{AUDIENCE}":
        return False
    # " citecast:audience " is no tag citecast reads either
    word = _SEPARATORS.sub("", unicodedata.normalize("NFKC", name).lower())
    if not word.startswith(_PREFIXES[0]):
        return False
    rest = word[len(_PREFIXES[0]) :]
    return rest == AUDIENCE or is_near_miss(rest)


def _keys(meta: Mapping[Any, Any]) -> Iterator[tuple[str, str, object]]:
    """``(label, key, value)`` for each string key of ``meta`` and of its ``params`` table
    (``params`` in any case), labelled as written: ``Params.audience``."""
    for key, value in meta.items():
        if not isinstance(key, str):
            continue
        yield key, key, value
        if key.strip().lower() == _PARAMS and isinstance(value, Mapping):
            for inner, held in value.items():
                if isinstance(inner, str):
                    yield f"{key}.{inner}", inner, held


def names_audience(meta: Mapping[Any, Any]) -> bool:
    """Whether ``meta`` has a key naming an audience, or one meant to (a near miss)."""
    return any(is_audience(key) or is_near_miss(key) for _, key, _ in _keys(meta))


def front_matter_audience(meta: Mapping[Any, Any]) -> tuple[str, ...] | None:
    """The groups ``meta`` names: ``audience:`` or Hugo's ``params.audience`` (where Hugo asks
    custom keys to go), in any case; None when it names none.

    Unreadable (skip the file, with the reason) for a near-miss key, for a blank audience, and
    for several audience keys that no group may see all of.
    """
    named: list[tuple[str, tuple[str, ...]]] = []
    for label, key, value in _keys(meta):
        if is_audience(key):
            named.append((label, audience_from(value, f"front matter {label}")))
        elif is_near_miss(key):
            raise Unreadable(
                f"front matter key {label!r} is not citecast's audience key: write "
                f"`{AUDIENCE}:` (or `params.{AUDIENCE}`) with the groups that may read the "
                f"file, or `{AUDIENCE}: public`"
            )
    if not named:
        return None
    groups = named[0][1]
    for _, more in named[1:]:
        groups = narrower(groups, more)
    if not groups:
        written = " and ".join(f"{label} {', '.join(found)}" for label, found in named)
        raise Unreadable(
            f"front matter {written}: no group may see all of them; name the audience once"
        )
    return groups
