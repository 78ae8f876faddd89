"""Packing long answers into messages: parts as full as the limit allows.

A block longer than the limit is cut anyway; its first piece fills the room left in the
message before it, so a long answer no longer alternates full parts with nearly empty ones
(the tail of one long block, alone before the next long block).

Two invariants of a good greedy packer, both checked on random answers and limits:

- no two consecutive parts could have been one part within the limit;
- every part but the last holds at least a quarter of the limit, unless the next part starts
  with a whole block (a block that fits a part moves whole, never cut to fill one). A quarter,
  because that is the least a cut keeps: split_long's cut point lies past a quarter of the
  limit (it prefers a line or a sentence end there to a later space), and the space it ends at
  is dropped. A count bound (parts <= ceil(total/limit) + k) holds for no fixed k under greedy
  packing by block: blocks just over half the limit take a part each.

The old packer broke the second, never the first.
"""

from __future__ import annotations

import itertools
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from renderers.packing import pack

SEP = "\n\n"
WORDS = ["gateway", "cache", "policy", "restart", "state", "a", "the", "controller", "rebuilt"]
FENCE = re.compile(r"^```\w*$")
LINK = re.compile(r"\[[^\]]*\]\(https://kb\.example/\d+\)")
MARKER = re.compile(r"\[\^\d+\]")


@st.composite
def sentence(draw: st.DrawFn) -> str:
    words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=18))
    if draw(st.booleans()):
        n = draw(st.integers(1, 30))
        words.insert(draw(st.integers(0, len(words))), f"[the guide {n}](https://kb.example/{n})")
    text = " ".join(words).capitalize() + "."
    if draw(st.booleans()):
        text += f"[^{draw(st.integers(1, 15))}]"
    return text


@st.composite
def block(draw: st.DrawFn) -> str:
    if draw(st.integers(0, 5)) == 0:
        lines = [f"value_{i} = {i}  # a line of code" for i in range(draw(st.integers(1, 40)))]
        return "```python\n" + "\n".join(lines) + "\n```"
    return " ".join(draw(st.lists(sentence(), min_size=1, max_size=25)))


def words(text: str) -> list[str]:
    """The words of ``text``, without the fence lines a cut inside a code block adds."""
    return [w for line in text.split("\n") if not FENCE.match(line.strip()) for w in line.split()]


@settings(max_examples=300, deadline=None)
@given(st.lists(block(), min_size=1, max_size=12), st.integers(120, 900))
def test_parts_are_as_full_as_greedy_packing_allows(blocks: list[str], limit: int) -> None:
    parts = pack(blocks, limit)
    assert all(len(part) <= limit for part in parts)
    for first, second in itertools.pairwise(parts):
        assert len(first) + len(SEP) + len(second) > limit, (len(first), len(second))
        starts_whole = second.split(SEP)[0] in blocks
        assert len(first) >= limit // 4 or starts_whole, (len(first), limit, second[:60])
    # nothing lost or cut apart: every word, link and citation arrives once, in order
    joined = SEP.join(blocks)
    assert words(SEP.join(parts)) == words(joined)
    assert [m for p in parts for m in LINK.findall(p)] == LINK.findall(joined)
    assert [m for p in parts for m in MARKER.findall(p)] == MARKER.findall(joined)
