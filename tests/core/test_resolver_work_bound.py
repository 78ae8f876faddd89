"""The work per removed marker is bounded: the text written so far is not walked again each time.

Counted, not timed: the resolver's output pieces are a list that counts how many of them are
read back. Before the fix, each removed marker walked back up to 1,024 characters of short
pieces, so ``a [9], `` repeated 20,000 times took seconds.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.models import Source
from bot.registry import SourceRegistry
from bot.resolver import StreamResolver, resolve


class CountingPieces(list[str]):
    """The resolver's output pieces, counting each piece read back from the end."""

    read_back = 0

    def __reversed__(self) -> Iterator[str]:
        for piece in super().__reversed__():
            self.read_back += 1
            yield piece


def registry() -> SourceRegistry:
    reg = SourceRegistry(secret=b"work-bound-secret")
    reg.register_all([Source("a", title="A"), Source("b", title="B")])
    return reg


@pytest.mark.parametrize(
    "unit", ["a [9], ", "x [9] ", "( [9] ", "`a` [9] <", "[^ [9] 1] ", "a [1] b [9] "]
)
def test_removed_markers_do_not_walk_the_output_again(unit: str) -> None:
    raw = unit * 2000
    resolver = StreamResolver(registry())
    pieces = CountingPieces()
    resolver._pieces = pieces
    answer = resolver._resolve_all(raw)
    assert answer == resolve(raw, registry())
    assert len(answer.dropped) >= 2000
    # a few pieces per marker at most (the old walk read up to hundreds per marker)
    assert pieces.read_back <= 4 * len(pieces)
