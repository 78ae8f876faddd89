"""The answer text holds no bidi controls and no C0/C1 control codes, streamed or not.

README "### Escaping" promises they never reach a channel; the renderers' parser drops them,
but ``Answer.text`` is a channel too: the web's ``answer.text`` and its "Copy answer", the
``delta`` events and ``citecast ask`` carry it as it is (``\\u202e91$`` pasted as ``$19``).
"""

from __future__ import annotations

import pytest

from bot.models import Source
from bot.registry import SourceRegistry
from bot.resolver import ResolvePolicy, resolve
from tests.core.resolver_splits import resolved_alike

BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
CONTROLS = "".join(chr(c) for c in (*range(0x20), *range(0x7F, 0xA0)) if chr(c) not in "\t\n\r")
POLICY = ResolvePolicy(model_cites=True)


def registry() -> SourceRegistry:
    found = SourceRegistry(frozenset({"public"}))
    found.register_all(
        [
            Source(id=f"s{i}", title=f"Guide {i}", url=f"https://docs.example.com/g{i}")
            for i in (1, 2)
        ]
    )
    return found


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        ("Pay \u202e91$\u202c now\x1b[31m\x07 [1].\n", "Pay 91$ now[31m [^1]."),
        ("evil\x00\x1b[31m [2]", "evil[31m [^1]"),
        ("a\x0bb\x1fc\x85d [1]", "a b c d [^1]"),  # word separators stay apart
        ("`code \u2066x\u2069` [1]\n\n```\n\u202eend\n```\n", "`code x` [^1]\n\n```\nend\n```"),
        ("[\u202e1] and [2\u2069]", "[^1] and [^2]"),  # a marker reads as every channel shows it
    ],
)
def test_no_bidi_or_control_character_reaches_the_answer_text(raw: str, text: str) -> None:
    answer = resolved_alike(raw, registry, POLICY)  # every stream's deltas join to the same
    assert answer.text == text
    assert not any(ch in answer.text for ch in BIDI + CONTROLS)


def test_line_breaks_tabs_joiners_and_direction_marks_stay() -> None:
    raw = "Row\tcell [1]\n\n👩\u200d💻 \u200fשלום\u200e \u061cمرحبا [2]\n"
    answer = resolved_alike(raw, registry, POLICY)
    assert answer.text == "Row\tcell [^1]\n\n👩\u200d💻 \u200fשלום\u200e \u061cمرحبا [^2]"


def test_every_control_code_goes_whatever_the_stream_cut() -> None:
    raw = "".join(f"w{ch}" for ch in BIDI + CONTROLS) + " [1]"
    answer = resolve(raw, registry(), POLICY)
    assert not any(ch in answer.text for ch in BIDI + CONTROLS)
    assert resolved_alike(raw, registry, POLICY) == answer
