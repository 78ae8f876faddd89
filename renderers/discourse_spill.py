"""Footnote definitions that do not fit their post, moved to "More sources" posts after it.

Discourse defines a footnote in the post that references it, and the renderer keeps each
definition beside its reference. A sentence citing more sources than one post can define
(``[^1][^2][^3][^4]`` under ``max_post_length: 300``, the forum's floor) cannot be split that
way. Here the post keeps the first definitions that fit; each other reference becomes a plain
``\\[n\\]`` (``\\[n?\\]`` when its definition says "weak support?", as the renderer's other plain
forms) and its source is listed in the post(s) that follow. No source is lost and the answer
always posts, in more posts.

A source is shown with its link wherever some definition of it with the link fits: its fullest
one, else one with a shorter title and no page or section (each footnote's ``choices``, richest
first), in the post or in the list after it. Only a link longer than any post can hold leaves
the title alone. An answer lists each source once (:func:`spill_posts`): a later sentence citing
it again refers to the list above, so no two of its list posts are the same.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence, Set

from bot.errors import RenderError
from renderers.discourse_numbers import numbered_post, without_number

# one definition a line at the end of a post, as the renderer writes them: "[^n]: …"
_DEFINITION = re.compile(r"\[\^(\d+)\]: (.*)")
# a source's line in a list post, as _listed writes it
_LISTED = re.compile(r"^- \\\[(\d+)\\\] ", re.MULTILINE)
# how the renderer ends a weakly supported source's definition (renderers.discourse)
_WEAK = ", weak support?"
SPILL_NOTE = "*(More sources of the post above.)*"
# each footnote's definitions other than its fullest, richest first (shorter titles, no page or
# section; the last may be the title alone)
Choices = Mapping[int, Sequence[str]]


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
    return all(linked(text) for text in definitions(raw)[1].values())


def linked(text: str | None) -> bool:
    """Whether a definition shows a link."""
    return text is not None and "](" in text


def spill(
    raw: str,
    limit: int,
    rich: Mapping[int, str],
    *,
    shorter: Choices | None = None,
    relink: bool = False,
) -> list[str]:
    """``raw`` as posts of at most ``limit`` characters: itself when it fits, else with the
    definitions that do not fit moved to posts after it (``rich``: each source's fullest
    definition; ``shorter``: its shorter ones, tried where the fullest does not fit).

    ``relink`` (more posts are allowed): a post that fits only because the renderer showed
    some sources without their links also gets them back, by listing those sources, linked,
    in a post after it. RenderError when not even the body fits."""
    return spill_posts([raw], limit, rich, shorter=shorter, relink=relink)


def spill_posts(
    raws: Sequence[str],
    limit: int,
    rich: Mapping[int, str],
    *,
    shorter: Choices | None = None,
    relink: bool = False,
) -> list[str]:
    """One answer's posts, each spilled as by :func:`spill`, listing each source once: a
    source a list post of the answer already holds is not listed again (the reference reads
    ``\\[n\\]``, like the one above it), so the forum never gets the same list twice."""
    options = _Options(rich, shorter or {})
    posts: list[str] = []
    listed: set[int] = set()
    for raw in raws:
        if raw.startswith(SPILL_NOTE):
            # spilled before (composing renders, then relinks): a source listed since, for
            # a post before this one, is not listed twice
            lines = [line for line in raw.split("\n") if _listed_number(line) not in listed]
            listed.update(int(n) for n in _LISTED.findall(raw))
            if any(_listed_number(line) is not None for line in lines):
                posts.append("\n".join(lines))
            continue
        head, spilled = _spilled(raw, limit, options, relink)
        new = [(n, short) for n, short in spilled if n not in listed]
        listed.update(n for n, _ in new)
        posts += [head, *_listed(new, limit, options)]
    return posts


def _listed_number(line: str) -> int | None:
    match = _LISTED.match(line)
    return int(match.group(1)) if match else None


class _Options:
    """A footnote's definitions to choose from, richest first."""

    def __init__(self, rich: Mapping[int, str], shorter: Choices) -> None:
        self._rich = rich
        self._shorter = shorter

    def of(self, n: int, short: str) -> list[str]:
        found = [self._rich.get(n), *self._shorter.get(n, ()), short]
        return list(dict.fromkeys(text for text in found if text))

    def any_linked(self, n: int, short: str) -> bool:
        return any(linked(text) for text in self.of(n, short))


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


def _listable(n: int, text: str, limit: int) -> bool:
    return len(f"{SPILL_NOTE}\n\n- \\[{n}\\] {text}") <= limit


def _spilled(
    raw: str, limit: int, options: _Options, relink: bool
) -> tuple[str, list[tuple[int, str]]]:
    """The post that keeps the definitions that fit, and the footnotes moved out of it."""
    body, found = definitions(raw)
    unlinked = {n for n, text in found.items() if not linked(text) and options.any_linked(n, text)}
    if len(raw) <= limit:
        if not (relink and unlinked):
            return raw, []
        # relinking a post that fits: the definitions with their links stay as they are
        kept, spilled = _chosen(body, found, limit, options, set(found) - unlinked)
        head = _head(body, found, kept, spilled)
        if len(head) <= limit:
            return head, spilled
    kept, spilled = _chosen(body, found, limit, options, set())
    head = _head(body, found, kept, spilled)
    if len(head) > limit:
        raise RenderError(f"cannot fit the answer into {limit} characters")
    return head, spilled


def _head(
    body: str, found: dict[int, str], kept: list[tuple[int, str]], spilled: list[tuple[int, str]]
) -> str:
    weak = {n for n, text in found.items() if text.endswith(_WEAK)}
    return numbered_post(_post(_plain(body, [m for m, _ in spilled], weak), kept))


def _chosen(
    body: str, found: dict[int, str], limit: int, options: _Options, as_is: Set[int]
) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The definitions the post keeps (``as_is``: as they are) and those moved after it."""
    weak = {n for n, text in found.items() if text.endswith(_WEAK)}
    kept: list[tuple[int, str]] = []
    spilled: list[tuple[int, str]] = []
    for n, short in found.items():
        if n in as_is:
            kept.append((n, short))
            continue
        # the references not defined here (so far: every later one) read "[m]", not "[^m]"
        pending = [m for m, _ in spilled] + [m for m in found if m > n]

        def fits(text: str, n: int = n, pending: list[int] = pending) -> bool:
            return _numbered_length(_plain(body, pending, weak), [*kept, (n, text)]) <= limit

        choices = options.of(n, short)
        with_link = [text for text in choices if linked(text)]
        here = next((text for text in with_link if fits(text)), None)
        # a source is better listed with its link after the post than shown without it here
        if here is None and not any(_listable(n, text, limit) for text in with_link):
            here = next((text for text in choices if fits(text)), None)
        if here is None:
            spilled.append((n, short))
        else:
            kept.append((n, here))
    return kept, spilled


def _listed(items: list[tuple[int, str]], limit: int, options: _Options) -> list[str]:
    """The spilled sources, one a line, in as few posts as hold them: each with its link
    (its title shortened where the fullest definition is too long for a post) unless no
    definition with the link fits a post."""
    posts: list[str] = []
    current = SPILL_NOTE
    for n, short in items:
        choices = [text for text in options.of(n, short) if _listable(n, text, limit)]
        text = next((t for t in choices if linked(t)), choices[0] if choices else None)
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
