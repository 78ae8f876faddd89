"""Mistral's paired citation words, ``[REF]3[/REF]`` (bot.marker_parse), and what a removed
placeholder leaves before a number: never the number glued to the word before it.

Checked with ``resolve()`` and the stream fed in several splits (``resolved_everywhere``).
"""

from __future__ import annotations

import pytest

from tests.core.resolver_splits import resolved_everywhere

CASES = [
    ("Use pip[REF]2[/REF] now.", "Use pip[^1] now."),
    ("Use pip [REF]1,2[/REF].", "Use pip [^1][^2]."),
    ("Use pip [ref] 2 [/ref].", "Use pip [^1]."),
    ("Use pip [REF]2[/REF][REF]1[/REF].", "Use pip [^1][^2]."),
    ("[CITE]1[/CITE] first.", "[^1] first."),
    # a number no source has is dropped with the pair, the space before it too
    ("Use pip [REF]9[/REF].", "Use pip."),
    # a placeholder without its closing word: the number stays apart from the word
    ("Use pip[REF]3 times.", "Use pip 3 times."),
    ("Use pip [REF]3 times.", "Use pip 3 times."),
    ("Use pip[REF]2[/CITE] x", "Use pip 2[/CITE] x"),
    ("Use pip[source]3.", "Use pip 3."),
    # ordinary prose and links stay
    ("See [the ref] 2 times.", "See [the ref] 2 times."),
    ("[REF]: https://x.test", "[REF]: https://x.test"),
    ("a[REF]b", "ab"),
]


@pytest.mark.parametrize(("raw", "text"), CASES)
def test_paired_words_and_no_glued_numbers(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text
