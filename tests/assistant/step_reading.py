"""Reading one step's text as it streams, in any pieces (shared by the text-call tests)."""

from __future__ import annotations

from hypothesis import strategies as st

from bot.assistant.openai_step import Step


def read(pieces: list[str]) -> tuple[str, list[tuple[str, str, str]]]:
    """What a step shows and calls, given its text in these pieces."""
    step = Step()
    shown = "".join(step.add_text(piece) for piece in pieces) + step.end_text()
    assert shown == "".join(step.text)
    return shown, [(c.id, c.name, c.arguments) for c in step.tool_calls()]


def chunked(sample: str, data: st.DataObject) -> list[str]:
    """``sample`` cut in up to nine pieces where hypothesis draws."""
    cuts = sorted(data.draw(st.sets(st.integers(1, max(1, len(sample) - 1)), max_size=8)))
    return [sample[a:b] for a, b in zip([0, *cuts], [*cuts, len(sample)], strict=True)]
