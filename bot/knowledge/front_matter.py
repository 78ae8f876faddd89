"""Front matter: the YAML, TOML or JSON block opening a Markdown or text file, split from its body.

A block that cannot be read is never guessed at: it may name the file's ``audience``, and
reading it as body text would index a private file as public. So an invalid block, one that is
not a mapping, or one that writes a key twice makes the file :class:`Unreadable`, with the
line and column the parser names counted from the top of the file. So does a block naming an
audience that is never closed, or opened or closed by a mistyped fence (``----``, ``— — —``,
a fence behind an invisible character: :mod:`bot.knowledge.front_matter_lines`).
"""

from __future__ import annotations

import json
import re
import tomllib
import unicodedata
from collections.abc import Hashable
from typing import Any

import yaml

from bot.knowledge.document import Unreadable
from bot.knowledge.front_matter_audience import names_audience
from bot.knowledge.front_matter_lines import (
    is_blank_line,
    is_fence_like,
    names_audience_json_key,
    names_audience_key,
    opening_start,
    other_break,
    split_at_breaks,
)

_TOML_AT = re.compile(r"\(at line (\d+), column (\d+)\)")
# control characters have no name in unicodedata
_BREAK_NAMES = {"\x85": "NEXT LINE", "\v": "LINE TABULATION", "\f": "FORM FEED"}
_JSON_CHECKED_CHARS = 20_000  # how far the audience check reads in a JSON object never closed


class _FrontMatterLoader(yaml.SafeLoader):
    """YAML's safe loader, refusing a key written twice.

    PyYAML keeps the last of two equal keys, so ``audience: [staff]`` followed by a stray
    ``audience: public`` would quietly publish the file.
    """

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[object] = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue  # ``<<: *defaults`` may be overridden on purpose
            key = self.construct_object(key_node, deep=True)
            if not isinstance(key, Hashable):
                continue  # the base class refuses it with its own message
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} is written twice", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def split_front_matter(text: str, *, scalar_is_body: bool = False) -> tuple[dict[str, Any], str]:
    """Split a leading front-matter block from the body: YAML between ``---`` lines (closed
    by ``---`` or ``...``), or TOML between ``+++`` lines (Hugo's default).

    A file without a closed block is all body, unless it opens with a fence (or a line meant
    as one: ``----``, `` ---``, ``--- # note``, ``－－－``, an invisible character or a
    no-break space before it; :func:`is_fence_like`) and a key line naming an audience comes
    before any line like a fence: such a block, never closed or mistyped, is Unreadable,
    since read as text it left a private file public. A closed block that is not valid YAML
    or TOML, not a mapping, or repeats a key makes the file Unreadable: the block may hold
    ``audience:``, so guessing (indexing it as body text, and the file as public) could
    publish a private file. An empty block is no front matter. With ``scalar_is_body`` (plain
    text, where ``---`` / ``FAQ`` / ``---`` is a reStructuredText title), a YAML block that is
    a plain string is body text: it cannot name an audience.

    A block after blank lines (lines of invisible characters count as blank; Hugo reads it
    as front matter; a Markdown renderer shows a rule and a heading), under HTML comments
    (``<!-- markdownlint-disable MD041 -->``, whatever follows the comment on its line;
    Hugo reads it, and front matter inside a comment: :func:`opening_start`) or under a
    ``%YAML 1.2`` directive, and a JSON object
    opening the file (Hugo's JSON front matter) are front matter when they name an audience
    (:func:`names_audience`), as their author meant: read as text, they left a private file
    public. Any other such file reads as before, and one that
    cannot be parsed but names ``audience`` is Unreadable. So is a file whose opening fence a
    pasted U+2028 (or U+2029, U+0085) joins to the key lines under it, and one with a second
    block naming an audience right under its front matter: no front matter reader reads
    either audience.
    """
    lines = text.split("\n")
    # the first line that is not blank nor in a comment above the front matter
    start, in_comment = opening_start(lines)
    first = lines[start]
    opener = first.strip() if first.startswith(("---", "+++")) else ""
    end = _closing(lines, start) if opener in ("---", "+++") else None
    if end is None:
        _refuse_joined_fence(lines, start)
        _refuse_unclosed(lines, start, opener)
        if first.startswith("{"):
            return _json_front_matter(text, sum(len(line) + 1 for line in lines[:start]))
        return {}, text
    _refuse_second_block(lines, end)
    if in_comment:  # the ``-->`` under front matter inside a comment (Hugo's) is no text
        after = next((n for n in range(end + 1, len(lines)) if not is_blank_line(lines[n])), 0)
        if after and lines[after].strip() == "-->":
            del lines[after]
    block = lines[start + 1 : end]
    if scalar_is_body and opener == "---" and _plain_string(block):
        return {}, text
    parse = _front_matter if opener == "---" else _toml_front_matter
    if start == 0:
        return parse(block, start + 2), "\n".join(lines[end + 1 :])
    try:
        meta = parse(block, start + 2)
    except Unreadable:
        if names_audience_key(block):
            raise
        return {}, text  # a rule, a paragraph and a rule (or a heading's underline)
    if not names_audience(meta):
        return {}, text
    return meta, "\n".join(lines[end + 1 :])


def _closing(lines: list[str], start: int) -> int | None:
    """The line that closes the front matter opened on ``lines[start]`` (None: never)."""
    closers = ("---", "...") if lines[start].strip() == "---" else ("+++",)
    return next(
        (end for end in range(start + 1, len(lines)) if lines[end].strip() in closers), None
    )


def _refuse_unclosed(lines: list[str], start: int, opener: str) -> None:
    """Unreadable when ``lines[start]`` opens what its author meant as front matter naming an
    audience, yet no reader takes it for one: a ``---`` or ``+++`` never closed (or closed by
    a mistyped line), or a fence mistyped itself (``----``, `` ---``, a zero-width space
    before it). Read as text, such a block left a private file public. A ``---`` rule with
    no audience key line before the next rule is text, as before."""
    first = lines[start]
    if not is_fence_like(first):
        return
    block: list[str] = []
    for line in lines[start + 1 :]:
        if is_fence_like(line):
            break
        block.append(line)
    if not names_audience_key(block):
        return
    number = start + 1
    if opener in ("---", "+++"):
        raise Unreadable(
            f"front matter opened on line {number} is never closed ({opener}): end it with a "
            f"line of {opener} alone, since it may name the file's audience"
        )
    raise Unreadable(
        f"line {number} {first.rstrip()!r} opens what looks like front matter naming an "
        "audience but is not a front matter fence: write --- (or +++) alone at the start "
        "of the line"
    )


def _refuse_joined_fence(lines: list[str], start: int) -> None:
    """Unreadable when ``lines[start]`` is a fence joined to the lines under it by a character
    front matter readers take for no line break (``---`` U+2028 ``audience: staff``, pasted
    from a web page or a word processor) and a key line among them names an audience: Hugo,
    Jekyll and gray-matter read no front matter there, and read as text it left a private
    file public."""
    first = lines[start]
    found = other_break(first)
    if found is None:
        return
    pieces = [piece for piece in split_at_breaks(first) if piece.strip()]
    if not pieces or not is_fence_like(pieces[0]):
        return
    block: list[str] = []
    for line in [*pieces[1:], *lines[start + 1 :]]:
        if is_fence_like(line):
            break
        block.append(line)
    if names_audience_key(block):
        name = _BREAK_NAMES.get(found) or unicodedata.name(found, "a control character")
        raise Unreadable(
            f"line {start + 1} holds U+{ord(found):04X} ({name}) where a line break belongs, "
            "so no front matter reader sees its fence: replace it with a line break, since "
            "the front matter may name the file's audience"
        )


def _refuse_second_block(lines: list[str], end: int) -> None:
    """Unreadable when a second block right under the front matter closed on ``lines[end]``
    (blank lines between) names an audience (``---`` / ``title: Pay`` / ``---`` then ``---``
    / ``audience: staff`` / ``---``, as when a tool adds its own block on top): Hugo, Jekyll
    and gray-matter read the first block alone, so the file would be public to them too."""
    after = end + 1
    while after < len(lines) and is_blank_line(lines[after]):
        after += 1
    if after >= len(lines) or not is_fence_like(lines[after]):
        return
    block: list[str] = []
    for line in lines[after + 1 :]:
        if is_fence_like(line):
            break
        block.append(line)
    if names_audience_key(block):
        raise Unreadable(
            f"a second front matter block opens on line {after + 1}, under the one closed on "
            f"line {end + 1}, and names an audience: front matter readers read only the "
            "first block, so move its keys into the first one"
        )


def _json_front_matter(text: str, offset: int) -> tuple[dict[str, Any], str]:
    """Hugo's JSON front matter, the object opening ``text`` at ``offset``, and the body after
    its line, when it names an audience; else no front matter and ``text`` the body."""
    try:
        data, end = _JSON.raw_decode(text, offset)
    except ValueError as exc:  # json.JSONDecodeError, or a key written twice
        opening = text[offset:]
        closing = re.search(r"^\}[ \t\r]*$", opening, re.M)
        opening = opening[: closing.end() if closing else _JSON_CHECKED_CHARS]
        if not names_audience_json_key(opening):
            return {}, text  # an MDX expression, or text in braces
        reason = str(exc)
        if isinstance(exc, json.JSONDecodeError):
            reason = f"{exc.msg} (line {exc.lineno}, column {exc.colno})"
        raise Unreadable(f"front matter is not valid JSON: {reason}") from None
    rest_of_line, _, body = text[end:].partition("\n")
    if not isinstance(data, dict) or rest_of_line.strip() or not names_audience(data):
        return {}, text
    return data, body


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refusing a key written twice (``json`` keeps the last one, as PyYAML
    does: ``"audience": "public"`` after ``"audience": "staff"`` would publish the file)."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise ValueError(f"key {key!r} is written twice")
        found[key] = value
    return found


_JSON = json.JSONDecoder(object_pairs_hook=_unique_keys)


def _plain_string(lines: list[str]) -> bool:
    try:
        data = yaml.load("\n".join(lines), Loader=_FrontMatterLoader)  # noqa: S506 - safe loader
    except (yaml.YAMLError, ValueError):
        return False  # an invalid block may have meant to name an audience
    return isinstance(data, str)


def _toml_front_matter(lines: list[str], first_line: int = 2) -> dict[str, Any]:
    try:
        return tomllib.loads("\n".join(lines))  # TOML itself refuses a key written twice
    except tomllib.TOMLDecodeError as exc:
        # The block starts on the file's ``first_line``; tomllib counts lines from 1 within it.
        shift = first_line - 1
        reason = _TOML_AT.sub(lambda m: f"(line {int(m[1]) + shift}, column {m[2]})", str(exc))
        raise Unreadable(f"front matter is not valid TOML: {reason}") from None


def _front_matter(lines: list[str], first_line: int = 2) -> dict[str, Any]:
    try:
        data = yaml.load("\n".join(lines), Loader=_FrontMatterLoader)  # noqa: S506 - safe loader
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).split("\n", 1)[0]
        # The block starts on the file's ``first_line``; marks count from 0 within it.
        where = f" (line {mark.line + first_line}, column {mark.column + 1})" if mark else ""
        raise Unreadable(f"front matter is not valid YAML: {problem}{where}") from None
    except ValueError as exc:  # a well-formed but impossible value, e.g. date 2001-02-30
        raise Unreadable(f"front matter is not valid YAML: {exc}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise Unreadable(
            f"front matter is not a mapping of keys (it is a YAML {type(data).__name__}); "
            "write `key: value` lines between the `---` lines"
        )
    return data
