"""The starts of a ``${NAME}``'s value that a config check cut off with ``...``, swapped for
what the file writes (:func:`bot.config_env.hide_env_values` swaps the whole value).

A check that quotes a long value shortens it (``template[:77] + "..."``, as
:mod:`bot.config_url_templates` does): the start of ``https://deploy:PASSWORD@docs.example.com/…``
from ``${DOCS_URL}`` then holds a password, and the whole value is in no message.
"""

from __future__ import annotations

MIN_CUT = 8
"""The shortest start of a value that :func:`replace_cut_starts` hides when a check cut it off: a
shorter one (``'htt...'``) says nothing of a secret and would hide common words."""


def replace_cut_starts(text: str, value: str, written: str) -> str:
    """``text`` with each start of ``value`` (at least :data:`MIN_CUT` characters) that a
    check cut off with ``...`` replaced by ``written`` (quoted, when the cut was). A quoted
    start may be written as ``repr`` writes it (a backslash doubled): that form is looked for
    too. Linear in the length of ``text`` and ``value``: a check may quote a long value.
    """
    if len(value) < MIN_CUT or "..." not in text:
        return text
    # each form's longest start ending at each place of the text: at a cut, the longer wins
    # (a start of the value as written may also end the start of its repr form)
    forms: list[tuple[list[int], list[int]]] = []
    for shown in dict.fromkeys((value, repr(value)[1:-1])):
        fail = _failure(shown)
        forms.append((fail, _start_lengths(text, shown, fail)))
    parts: list[str] = []
    done = 0
    dots = text.find("...")
    while dots != -1:
        length = max(_cut_length(fail, ends[dots], dots - done) for fail, ends in forms)
        if length < MIN_CUT:
            dots = text.find("...", dots + 1)
            continue
        begin, after = dots - length, dots + 3
        quote = text[begin - 1 : begin]
        if quote in ("'", '"') and text[after : after + 1] == quote:
            parts += [text[done : begin - 1], repr(written)]
            done = after + 1
        else:
            parts += [text[done:begin], written]
            done = after
        dots = text.find("...", done)
    return "".join(parts) + text[done:]


def _cut_length(fail: list[int], length: int, room: int) -> int:
    """The longest of the starts ``length`` and those it ends with that fits in ``room``."""
    while length >= MIN_CUT and length > room:
        length = fail[length - 1]
    return length


def _failure(shown: str) -> list[int]:
    """For each ``i``, how long the longest start of ``shown`` is that ``shown[: i + 1]`` ends
    with, itself not counted (Knuth-Morris-Pratt): the starts a check may cut, found in one
    pass over a message however long the value (a check may quote all of a long one)."""
    fail = [0] * len(shown)
    length = 0
    for i in range(1, len(shown)):
        while length and shown[i] != shown[length]:
            length = fail[length - 1]
        if shown[i] == shown[length]:
            length += 1
        fail[i] = length
    return fail


def _start_lengths(text: str, shown: str, fail: list[int]) -> list[int]:
    """For each ``i`` from 0 to ``len(text)``, the length of the longest start of ``shown``
    that ``text[:i]`` ends with."""
    ends = [0]
    length = 0
    for character in text:
        if length == len(shown):
            length = fail[length - 1]
        while length and character != shown[length]:
            length = fail[length - 1]
        if character == shown[length]:
            length += 1
        ends.append(length)
    return ends
