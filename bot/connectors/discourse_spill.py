"""Footnote definitions that do not fit their post, moved to the posts after it.

Discourse defines a footnote in the post that references it, and the renderer keeps each
definition beside its reference. A sentence citing more sources than one post can define
(``[^1][^2][^3][^4]`` under ``max_post_length: 300``, the forum's floor) cannot be split that
way, and the answer used to be dropped ("cannot fit the answer"). Here the post keeps the
first definitions that fit; each other reference becomes a plain ``\\[n\\]`` (``\\[n?\\]`` when
its definition says "weak support?", as the renderer's other plain forms) and its source is
listed in the post(s) that follow, with its link when a post can hold it. No source is lost
and the answer always posts, in more posts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Set

from bot.errors import RenderError
from renderers.discourse_numbers import numbered_post, without_number

# one definition a line at the end of a post, as the renderer writes them: "[^n]: …"
_DEFINITION = re.compile(r"\[\^(\d+)\]: (.*)")
# how the renderer ends a weakly supported source's definition (renderers.discourse)
_WEAK = ", weak support?"
SPILL_NOTE = "*(More sources of the post above.)*"


def definitions(raw: str) -> tuple[str, dict[int, str]]:
    """The post's body and its footnote definitions (number -> text, in order); no
    definitions when the post does not end with them."""
    body, sep, tail = raw.rpartition("\n\n")
    found: dict[int, str] = {}
    for line in tail.splitlines():
        match = _DEFINITION.fullmatch(line)
        if not sep or match is None:
            return raw, {}
        # without the answer's number a definition may begin with: numbered_post puts it back
        # where the post, as finally posted, shows another number
        n = int(match.group(1))
        found[n] = without_number(n, match.group(2))
    return body, found


def all_linked(raw: str) -> bool:
    """Whether every footnote the post defines shows a link (none lost it to fit the post,
    and none is a file named only)."""
    return all(_linked(text) for text in definitions(raw)[1].values())


def _plain(body: str, numbers: list[int], weak: Set[int]) -> str:
    # a reference without a definition would show as "[^n]" literally: "[n]" points at the
    # list in the next post instead; "[n?]" for a weak one, whose "weak support?" is now
    # only in that list
    if not numbers:
        return body

    def plain(match: re.Match[str]) -> str:
        n = match.group(1)
        return f"\\[{n}?\\]" if int(n) in weak else f"\\[{n}\\]"

    return re.sub(rf"\[\^({'|'.join(map(str, numbers))})\](?![0-9])", plain, body)


def _post(body: str, kept: list[tuple[int, str]]) -> str:
    lines = "\n".join(f"[^{n}]: {text}" for n, text in kept)
    return f"{body}\n\n{lines}" if lines else body


def _numbered_length(body: str, kept: list[tuple[int, str]]) -> int:
    # at most: every kept definition with the answer's number (which ones need it depends on
    # the references moved after it, decided later), so the post numbered at the end still fits
    return len(_post(body, kept)) + sum(len(f"\\[{n}\\] ") for n, _ in kept)


def _linked(text: str | None) -> bool:
    return text is not None and "](" in text


def _listable(n: int, text: str | None, limit: int) -> bool:
    return text is not None and len(f"{SPILL_NOTE}\n\n- \\[{n}\\] {text}") <= limit


def spill(raw: str, limit: int, rich: Mapping[int, str], *, relink: bool = False) -> list[str]:
    """``raw`` as posts of at most ``limit`` characters: itself when it fits, else with the
    definitions that do not fit moved to posts after it (``rich``: each source's fullest
    definition, used where a post holds it).

    ``relink`` (more posts are allowed): a post that fits only because the renderer showed
    some sources without their links also gets them back, by listing those sources, linked,
    in a post after it. RenderError when not even the body fits."""
    body, found = definitions(raw)
    weak = {n for n, text in found.items() if text.endswith(_WEAK)}
    unlinked = [n for n, text in found.items() if not _linked(text) and _linked(rich.get(n))]
    if len(raw) <= limit and not (relink and unlinked):
        return [raw]
    kept: list[tuple[int, str]] = []
    spilled: list[tuple[int, str]] = []
    for n, short in found.items():
        fuller = rich.get(n) or short
        # the references not defined here (so far: every later one) read "[m]", not "[^m]"
        pending = [m for m, _ in spilled] + [m for m in found if m > n]

        def fits(text: str, n: int = n, pending: list[int] = pending) -> bool:
            return _numbered_length(_plain(body, pending, weak), [*kept, (n, text)]) <= limit

        # a source is better listed with its link after the post than shown without it here
        list_it = not _linked(short) and _linked(fuller) and _listable(n, fuller, limit)
        if fits(fuller):
            kept.append((n, fuller))
        elif fits(short) and not list_it:
            kept.append((n, short))
        else:
            spilled.append((n, short))
    head = numbered_post(_post(_plain(body, [m for m, _ in spilled], weak), kept))
    if len(head) > limit:
        raise RenderError(f"cannot fit the answer into {limit} characters")
    return [head, *_listed(spilled, limit, rich)]


def _listed(items: list[tuple[int, str]], limit: int, rich: Mapping[int, str]) -> list[str]:
    """The spilled sources, one a line, in as few posts as hold them."""
    posts: list[str] = []
    current = SPILL_NOTE
    for n, short in items:
        text = next((t for t in (rich.get(n), short) if _listable(n, t, limit)), None)
        if text is None:
            raise RenderError(f"cannot fit the answer into {limit} characters")
        line = f"- \\[{n}\\] {text}"
        separator = "\n\n" if current == SPILL_NOTE else "\n"
        if len(current) + len(separator) + len(line) > limit:
            posts.append(current)
            current, separator = SPILL_NOTE, "\n\n"
        current += separator + line
    if current != SPILL_NOTE:
        posts.append(current)
    return posts
