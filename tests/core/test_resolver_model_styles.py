"""Citation styles particular models leak into their answers (bot.marker_word_lists,
bot.marker_model_tags): Gemini's ``[cite_start]…[cite: 2]``, Claude's
``<cite index="2-1">…</cite>``, Command R's ``<co: 2>…</co: 2>``, Llama's ``[Source 1,
Source 2]`` and ``[#2]``. Each resolves like ``[2]``; the text that merely looks alike stays.
Checked with ``resolve()`` and the stream fed in several splits (``resolved_everywhere``).
"""

from __future__ import annotations

import pytest

from tests.core.resolver_splits import resolved_everywhere

L = "\u003c"  # "<": the tags spelled out, so no tool between the file and its reader eats them

CASES = [
    # Gemini: the opener goes, the space before it stays
    ("[cite_start]Install with pip.[cite: 2]", "Install with pip.[^1]"),
    ("Fact. [cite_start]Install with pip [cite: 1, 2].", "Fact. Install with pip [^1][^2]."),
    ("Fact [cite_start][9] more.", "Fact more."),
    ("[CITE_START]x", "x"),
    # Claude: the words stay, the closing tag cites the source before the dash
    (f'Use {L}cite index="2-1">pip{L}/cite>. Done.', "Use pip[^1]. Done."),
    (
        f'{L}cite index="1-1,2-3">a{L}/cite> and {L}cite index="2-1">b{L}/cite>.',
        "a[^1][^2] and b[^2].",
    ),
    (f'{L}cite index = "2-1" >a{L}/CITE>', "a[^1]"),
    (f'Use {L}cite index="9-1">pip{L}/cite>.', "Use pip."),
    # Command R
    (f"Use {L}co: 2>pip{L}/co: 2>.", "Use pip[^1]."),
    (f"Use {L}co: 1,2>pip{L}/co: 1,2> now.", "Use pip[^1][^2] now."),
    (f"Use {L}co:2>pip{L}/co:2>.", "Use pip[^1]."),
    # Llama
    ("Use pip [Source 1, Source 2].", "Use pip [^1][^2]."),
    ("Use pip [Document 2, Document 1].", "Use pip [^1][^2]."),
    ("Use pip [Document 2; Doc 1].", "Use pip [^1][^2]."),
    ("Use pip [source 1, source 9].", "Use pip [^1]."),
    ("Use pip [#2].", "Use pip [^1]."),
    ("Use pip [#1, #2].", "Use pip [^1][^2]."),
    # what stays text: HTML's own cite, unknown hashes, other tags and labels
    (f"Read {L}cite>The Guide{L}/cite> now.", f"Read {L}cite>The Guide{L}/cite> now."),
    (f"x {L}/cite> y", f"x {L}/cite> y"),
    (
        f"{L}code>a{L}/code> {L}cite class='x'>b{L}/cite>",
        f"{L}code>a{L}/code> {L}cite class='x'>b{L}/cite>",
    ),
    (f"a {L}col> b {L}/co> c", f"a {L}col> b {L}/co> c"),
    ("Issue [#12] and [#9].", "Issue [#12] and [#9]."),
    ("See [#1, #9].", "See [#1, #9]."),
    ("[Figure 1, Figure 2]", "[Figure 1, Figure 2]"),
    ("[cite_end] stays", "[cite_end] stays"),
]


@pytest.mark.parametrize(("raw", "text"), CASES)
def test_model_citation_styles(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text
