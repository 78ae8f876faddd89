"""Footnote definitions that do not fit their post, moved to the posts after it.

The connector's side of ``renderers.discourse_spill``: a sentence citing more sources than
one post can define (``[^1][^2][^3][^4]`` under ``max_post_length: 300``, the forum's floor)
used to drop the whole answer ("cannot fit the answer"). The connector renders with sentences
kept whole (``renderers.discourse.render_posts``), puts the uploads' URLs in, and moves the
definitions a post cannot hold to "*(More sources of the post above.)*" posts after it, each
source with its link wherever a definition with the link fits a post (its title shortened if
need be) and listed once per answer. ``discourse_consecutive`` drops that note when it adds
such a post to the one before.
"""

from __future__ import annotations

from renderers.discourse_spill import (
    SPILL_NOTE,
    Choices,
    all_linked,
    definitions,
    linked,
    spill,
    spill_posts,
)

__all__ = ["SPILL_NOTE", "Choices", "all_linked", "definitions", "linked", "spill", "spill_posts"]
