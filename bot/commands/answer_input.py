"""Reading an Answer JSON document given on the command line (``render``, ``preview``)."""

from __future__ import annotations

import json

from bot.errors import ValidationError
from bot.markdown import Token, parse
from bot.models import Answer
from renderers.document import cited_numbers


def read_answer(raw: str, origin: str) -> tuple[Answer, list[Token]]:
    """The Answer in ``raw`` JSON and its parsed text; ValidationError naming what is wrong.

    A ``[^n]`` in the text that no citation carries is refused rather than silently left out
    of every rendering: it means the JSON was edited or built by hand inconsistently.
    """
    if not raw.strip():
        raise ValidationError(f"no input: {origin} is empty; give it an Answer JSON object")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ValidationError(f"{origin} is not valid JSON: {exc}") from None
    answer = Answer.from_json(data)
    tokens = parse(answer.text)
    known = {citation.n for citation in answer.citations}
    missing = sorted(set(cited_numbers(tokens)) - known)
    if missing:
        marks = ", ".join(f"[^{n}]" for n in missing)
        raise ValidationError(f"the text cites {marks} but citations has no such n")
    return answer, tokens
