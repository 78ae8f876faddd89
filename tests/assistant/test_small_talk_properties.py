"""Property tests for small-talk recognition (bot/pleasantries.py) and its built-in replies.

Any text: no exception, quick (the 120-character cap keeps the regexes off a pasted megabyte),
and conservative: a question mark or a long message is never small talk.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.assistant.extractive_small_talk import REPLIES, small_talk_reply
from bot.pleasantries import small_talk

# pieces of small talk and of questions, so that random text often comes close to the rules
_PIECES = st.sampled_from(
    [
        "hi", "Hello", "thanks", "thank you so much", "ok", "great", "bye", "Best regards",
        "Anna", "Anna Smith", "got it", "merci", "danke", "there", "how", "install", "it",
        ",", ".", "!", "?", "\uff1f", " ", "\n", " - ", "\u2019", "\u00a0", "cheers", "please",
    ]
)  # fmt: skip
_TEXT = st.one_of(
    st.text(max_size=200),
    st.lists(st.one_of(_PIECES, st.text(max_size=3)), max_size=40).map("".join),
)


@given(_TEXT)
def test_small_talk_is_one_of_its_kinds_or_none(text: str) -> None:
    kind = small_talk(text)
    assert kind is None or kind in REPLIES
    assert small_talk_reply(text) == (None if kind is None else REPLIES[kind])


@given(_TEXT, _TEXT)
def test_a_question_mark_is_never_small_talk(before: str, after: str) -> None:
    assert small_talk(f"{before}?{after}") is None
    assert small_talk(f"{before}\uff1f{after}") is None


@given(_TEXT)
def test_a_long_message_is_never_small_talk(text: str) -> None:
    assert small_talk("thanks " * 20 + text) is None  # 140 characters and more


@given(st.sampled_from(["hi", "thanks", "ok ", "bye,", "Best regards\n", "{"]), st.integers(1, 4))
def test_adversarial_long_text_is_refused_at_once(prefix: str, power: int) -> None:
    # 10**power repetitions of a tricky prefix: the length cap answers before any regex runs
    assert small_talk(prefix * 10**power + "x") is None or len(prefix) * 10**power <= 120
