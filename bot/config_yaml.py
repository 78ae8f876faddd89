"""A config file's YAML text read, and its syntax errors said in one line.

PyYAML alone keeps the last of a key written twice, silently dropping the first (a whole
section with it); here that is an error. Its syntax errors become one line with the line and
column, and a key indented off its section's column, the commonest slip when a commented-out
key loses only its ``#``, is called an indentation problem whichever error PyYAML gave for it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import yaml

MAX_VALUES = 100_000
"""A config file whose values, each alias counted as a copy of its anchor, number more than
this is refused: a few lines of nested aliases (``b: &b [*a, *a, ...]``, each level nine times
the last) took 15 s and 170 MB to check at seven levels and over a minute at nine, as every
later step (``${NAME}`` expansion, validation) copies each alias out. A real config has a few
hundred values."""

MAX_CHARACTERS = 10_000_000
"""A config file whose text, each alias counted as a copy of its anchor, is longer than this is
refused: one 500 KB string holding a ``${NAME}``, aliased 99,000 times, is under
:data:`MAX_VALUES` and the file under 1 MB, yet ``${NAME}`` expansion copies the string out
per alias (about 50 GB). The file itself is at most 1 MB of text."""


class TooManyValuesError(yaml.YAMLError):
    """The document's aliases expand to more than :data:`MAX_VALUES` values or
    :data:`MAX_CHARACTERS` characters."""


def load_yaml(text: str) -> Any:
    """The data of ``text``, a whole YAML document, refusing a key written twice in one
    mapping; raises ``yaml.YAMLError`` (``yaml_problem`` says it in one line), and
    :class:`TooManyValuesError` for aliases that expand past :data:`MAX_VALUES` values or
    :data:`MAX_CHARACTERS` characters."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        size = _expanded_size(node, {}, set())
        if size.values > MAX_VALUES:
            raise TooManyValuesError(
                f"its aliases (*name) expand to over {MAX_VALUES:,} values; "
                "is it the config file? write the values out, or use fewer nested aliases"
            )
        if size.characters > MAX_CHARACTERS:
            raise TooManyValuesError(
                f"its aliases (*name) expand to over {MAX_CHARACTERS:,} characters; "
                "is it the config file? use fewer aliases of long text"
            )
        return loader.construct_document(node)
    finally:
        loader.dispose()


@dataclass(frozen=True)
class _Size:
    """How many values a node holds, and how many characters its scalars, aliases copied."""

    values: int
    characters: int


def _expanded_size(node: yaml.Node, sizes: dict[int, _Size], inside: set[int]) -> _Size:
    """The size of ``node`` with every alias copied out (each shared node is counted once per
    use, but walked once). An alias inside its own anchor counts nothing here:
    :mod:`bot.config_file` names that mistake."""
    if id(node) in sizes:
        return sizes[id(node)]
    if id(node) in inside:
        return _Size(1, 0)
    if not isinstance(node, yaml.CollectionNode):
        return _Size(1, len(node.value) if isinstance(node.value, str) else 0)
    inside.add(id(node))
    items: list[yaml.Node] = []
    for item in node.value:
        items.extend(item if isinstance(item, tuple) else (item,))
    values, characters = 1, 0
    for item in items:
        size = _expanded_size(item, sizes, inside)
        values += size.values
        characters += size.characters
    inside.discard(id(node))
    sizes[id(node)] = _Size(values, characters)
    return sizes[id(node)]


class _Loader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that refuses a key written twice in one mapping."""


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> Iterator[dict[Any, Any]]:
    first_line: dict[Any, int] = {}
    for key_node, _ in node.value:
        if not isinstance(key_node, yaml.ScalarNode) or key_node.tag.endswith(":merge"):
            continue  # `<<: *defaults` may be overridden key by key, as YAML means it to
        key = loader.construct_object(key_node)
        if key in first_line:
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"key {key!r} written twice (first on line {first_line[key] + 1}); "
                "YAML would keep only the last one",
                key_node.start_mark,
            )
        first_line[key] = key_node.start_mark.line
    yield from loader.construct_yaml_map(node)


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def yaml_problem(exc: yaml.YAMLError) -> str:
    """A YAML error on one line: ``line 3, column 1: <problem> (<context> from line 2, ...)``."""
    if not isinstance(exc, yaml.MarkedYAMLError) or exc.problem_mark is None:
        return " ".join(str(exc).split())
    mark = exc.problem_mark
    text = f"line {mark.line + 1}, column {mark.column + 1}: {exc.problem or 'error'}"
    if exc.context:
        where = exc.context_mark
        same = where is not None and (where.line, where.column) == (mark.line, mark.column)
        text += f" ({exc.context}" + (
            ""
            if where is None or same
            else f" from line {where.line + 1}, column {where.column + 1}"
        )
        text += ")"
        if (
            where is not None
            and not same
            and exc.context == "while parsing a block mapping"
            and (exc.problem or "").startswith("expected <block end>")
            and mark.column != where.column
        ):
            # PyYAML's words for a key that does not line up with the keys of its section, as
            # when a commented-out key ("#   port: 8000") loses only its "#"
            text += _indentation_hint(mark.line, mark.column)
    elif exc.problem == "mapping values are not allowed here":
        # The same slip under a key with a plain value: YAML reads the deeper line as more of
        # that value, and stops only at the colon after the would-be key
        column = _continued_key_column(mark)
        if column is not None:
            text += _indentation_hint(mark.line, column)
    if "'\\t'" in (exc.problem or ""):
        # PyYAML's "found character '\t' that cannot start any token": an editor's Tab key
        text += "; use spaces there, not a tab (YAML indents with spaces only)"
    return " ".join(text.split())


_YAML_LINE_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")
"""What PyYAML counts as the end of a line when it numbers them (its ``Reader.forward``)."""


def _indentation_hint(line: int, column: int) -> str:
    """The advice for a key indented to ``column`` (0-based) on ``line`` (0-based) that no
    key of its section lines up with."""
    return (
        f"; line {line + 1} is indented to column {column + 1}, where no key "
        "above it starts: indent it as the other keys of its section"
    )


def _continued_key_column(mark: yaml.Mark) -> int | None:
    """The indentation of the line of ``mark``, a colon PyYAML refused, when that line is a
    key indented otherwise than the line above it; None for any other colon.

    Only the line's first colon counts: a second one on a key's own line (``title: Help:
    internal``) is a value that needs quotes, not a misplaced key. Blank lines above are
    passed over, as YAML folds them into the value (a comment line would have ended it).
    """
    if mark.buffer is None:
        return None  # read from a stream: the text is gone (load_settings reads a str)
    lines = _YAML_LINE_BREAK.split(mark.buffer.rstrip("\0"))
    if mark.line >= len(lines):
        return None
    own = lines[mark.line]
    key = own[: mark.column]
    indent = len(key) - len(key.lstrip(" "))
    if not key.strip() or ":" in key:
        return None
    for above in reversed(lines[: mark.line]):
        if above.strip():
            return indent if len(above) - len(above.lstrip(" ")) != indent else None
    return None
