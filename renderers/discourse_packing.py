"""How :class:`renderers.discourse_fit.PostFitter` packed an answer's blocks into posts at one
footnote definition level, and whether that packing keeps sentences and posts as whole as
another.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Packing:
    """Blocks (and pieces of blocks) by post, as packed at one definition level.

    ``starts``: where each post starts, the index of its first block and what is left of that
    block (packing ``[rest, *blocks[index + 1 :]]`` gives the same posts from there);
    ``inside``: how many cuts fall inside a sentence; ``over``: how many pieces left their post
    over the limit with its definitions.
    """

    groups: list[list[str]]
    starts: list[tuple[int, str]]
    inside: int
    over: int

    def as_whole_as(self, other: Packing) -> bool:
        """Whether this packing overfills no more posts than ``other``, and cuts no more
        sentences unless it takes fewer posts (greedy packing at richer definitions can; the
        posts are then evened out at the shorter ones, see :meth:`PostFitter._fewer`)."""
        if self.over > other.over:
            return False
        return self.inside <= other.inside or len(self.groups) < len(other.groups)
