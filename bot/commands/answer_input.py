"""Reading an Answer JSON document given on the command line (``render``, ``preview``)."""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any

from bot.errors import ValidationError
from bot.markdown import Token, parse
from bot.models import Answer
from renderers.document import cited_numbers


def parse_json(raw: str, origin: str) -> Any:
    """``raw`` parsed as JSON; a ValidationError naming ``origin`` for anything unreadable.

    Besides syntax errors, the stdlib decoder raises RecursionError for input nested a few
    thousand levels deep and ValueError for an integer of more than 4,300 digits: hostile or
    broken input, never an Answer, and neither may become a traceback.
    """
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ValidationError(f"{origin} is not valid JSON: {exc}") from None
    except RecursionError:
        raise ValidationError(f"{origin}: JSON nested too deeply") from None
    except ValueError:  # sys.get_int_max_str_digits(): "Exceeds the limit (4300 digits) ..."
        digits = sys.get_int_max_str_digits()
        raise ValidationError(f"{origin}: a number in it has more than {digits} digits") from None


ANSWER_FIELDS = frozenset(("text", "citations", "dropped", "uncited_claims"))
CITATION_FIELDS = frozenset(
    [
        "n",
        "source",
        "source_number",
        "quote",
        "deep_link",
        "columns",
        "claim",
        "support",
        "occurrences",
    ]
)
OCCURRENCE_FIELDS = frozenset(("quote", "deep_link", "support", "page", "page_end"))
DROPPED_FIELDS = frozenset(("marker", "reason", "offset"))


def _unknown(data: Any, known: frozenset[str], where: str) -> None:
    if isinstance(data, dict):
        unknown = sorted(str(key) for key in data if key not in known)
        if unknown:
            raise ValidationError(f"{where}unknown field(s): {', '.join(unknown)}")


def check_fields(data: Any) -> None:
    """Refuse a key the Answer JSON does not have (``"citatons"``, a citation's ``"qoute"``),
    naming it: read leniently, a misspelt key was dropped without a word and the answer
    rendered without what it held. (Sources are checked by ``Source.from_json`` itself.)

    Only here, for Answer JSON a person gives a command: ``Answer.from_json`` stays lenient,
    as it also loads the answers the store kept, which an older or newer release wrote.
    """
    if not isinstance(data, dict):
        return  # Answer.from_json says what it must be
    _unknown(data, ANSWER_FIELDS, "")
    for key, known in (("citations", CITATION_FIELDS), ("dropped", DROPPED_FIELDS)):
        items = data.get(key)
        if isinstance(items, list):
            for index, item in enumerate(items):
                _unknown(item, known, f"{key}[{index}]: ")
                marks = item.get("occurrences") if isinstance(item, dict) else None
                for k, mark in enumerate(marks if isinstance(marks, list) else []):
                    _unknown(mark, OCCURRENCE_FIELDS, f"{key}[{index}]: occurrences[{k}]: ")


def read_answer(raw: str, origin: str) -> tuple[Answer, list[Token]]:
    """The Answer in ``raw`` JSON and its parsed text; ValidationError naming what is wrong.

    A ``[^n]`` in the text that no citation carries is refused rather than silently left out
    of every rendering: it means the JSON was edited or built by hand inconsistently. So are
    two citations with the same ``n``: every channel would show only one of them.
    """
    if not raw.strip():
        raise ValidationError(f"no input: {origin} is empty; give it an Answer JSON object")
    data = parse_json(raw, origin)
    check_fields(data)
    answer = Answer.from_json(data)
    twice = sorted(n for n, count in Counter(c.n for c in answer.citations).items() if count > 1)
    if twice:
        raise ValidationError(
            "citations has more than one entry with n " + ", ".join(str(n) for n in twice)
        )
    tokens = parse(answer.text)
    known = {citation.n for citation in answer.citations}
    missing = sorted(set(cited_numbers(tokens)) - known)
    if missing:
        marks = ", ".join(f"[^{n}]" for n in missing)
        raise ValidationError(f"the text cites {marks} but citations has no such n")
    return answer, tokens
