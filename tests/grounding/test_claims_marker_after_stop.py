"""A citation written after the full stop and a space ("Fact. [^1]") belongs to that sentence.

Models told to cite after each sentence write it so; read as the next sentence's citation, right
citations were marked weak (or dropped) and wrong ones passed as verified.
"""

from __future__ import annotations

from bot.claims import claims, sentences
from bot.grounding import GroundingPolicy, verify
from bot.models import Source
from tests.grounding.cited_answers import Evidence, cited_answer

SIGNED = Source(
    id="links#1",
    title="Signed links",
    url="https://docs.example.org/links.html",
    text="Signed links expire after one hour.",
)
DISCORD = Source(
    id="discord#2",
    title="Discord FAQ",
    url="https://docs.example.org/discord.html",
    text="Discord limits a message to 2,000 characters.",
)


def test_marker_after_stop_and_space_closes_the_sentence_before() -> None:
    text = (
        "Signed links expire after one hour. [^1] "
        "Discord limits a message to 2,000 characters. [^2]"
    )
    assert [(c.text, c.numbers) for c in claims(text)] == [
        ("Signed links expire after one hour.", (1,)),
        ("Discord limits a message to 2,000 characters.", (2,)),
    ]
    assert [(s.text, s.numbers) for s in sentences(text)] == [
        ("Signed links expire after one hour.", (1,)),
        ("Discord limits a message to 2,000 characters.", (2,)),
    ]


def test_spaced_markers_after_stop_in_lists_and_other_scripts() -> None:
    listed = "- Signed links expire after one hour. [^1]\n- Discord limits messages. [^2]"
    assert [c.numbers for c in claims(listed)] == [(1,), (2,)]
    assert [s.numbers for s in sentences(listed)] == [(1,), (2,)]
    # a group of markers, tabs, CJK and Hindi sentence ends
    assert [(s.text, s.numbers) for s in sentences("Fact one.\t[^1] [^2] Next one.")] == [
        ("Fact one.", (1, 2)),
        ("Next one.", ()),
    ]
    assert [s.numbers for s in sentences("事実です。 [^1] 次です。[^2]")] == [(1,), (2,)]
    assert [s.numbers for s in sentences("यह सही है। [^1] अगला वाक्य है। [^2]")] == [(1,), (2,)]


def test_verify_checks_a_spaced_marker_against_its_own_sentence() -> None:
    right = cited_answer(
        "Signed links expire after one hour. [^1] Discord limits a message to 2,000 "
        "characters. [^2]",
        SIGNED,
        DISCORD,
    )
    checked = verify(right, Evidence(SIGNED, DISCORD))
    assert [c.claim for c in checked.citations] == [
        "Signed links expire after one hour.",
        "Discord limits a message to 2,000 characters.",
    ]
    assert all(c.support is not None and c.support >= 0.8 for c in checked.citations)

    # the numbers swapped: each sentence cites the other's source, so both are weak (below the
    # threshold) and the drop policy removes both
    wrong = cited_answer(right.text, DISCORD, SIGNED)
    checked = verify(wrong, Evidence(SIGNED, DISCORD))
    assert all(
        c.support is not None and c.support < GroundingPolicy().threshold for c in checked.citations
    )
    dropped = verify(wrong, Evidence(SIGNED, DISCORD), policy=GroundingPolicy(mode="drop"))
    assert "[^" not in dropped.text
