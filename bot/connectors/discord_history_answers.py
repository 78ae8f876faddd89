"""The answers of a Discord reply chain as history: stored, and only while still readable.

The reply chain (``discord_history``) gives the exchanges as their messages read now. Each
answer's messages are recorded with the turn they answer (``answer_records``), so an exchange
is judged by its own stored turn, however its question was edited since; one without a record
(posted before the record was kept, or pruned since) is matched by its question's text. An
exchange whose stored answer its readers may no longer see
(:func:`bot.connectors.web_turn_page.visible_answer`) is left out, question and all; so is one
that cannot be matched while the conversation holds any answer they may not see: it could be
that one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.connectors.answer_records import answered, any_hidden
from bot.connectors.base import fit_question
from bot.connectors.web_turn_page import visible_answer
from bot.connectors.web_viewer_links import FileIndex
from bot.models import Exchange
from bot.store import Turn


def _stored_text(turn: Turn) -> str | None:
    text = (turn.answer or {}).get("text") if turn.status == "done" else None
    return text if isinstance(text, str) and text.strip() else None


def with_stored_answers(
    history: tuple[Exchange, ...],
    turns: Sequence[Turn],
    readable: Callable[[Turn], bool],
    question_chars: int | None = None,
    answered_by: Sequence[tuple[Turn, ...]] = (),
) -> tuple[Exchange, ...]:
    """``history`` with each answer taken from its stored turn when there is one: the whole
    answer, whichever of its messages was replied to (a walk back from an early part never sees
    the later ones), in its own markdown rather than Discord's.

    ``answered_by`` holds, exchange by exchange, the turns its messages were recorded for; an
    exchange without is looked up among ``turns`` (all of the conversation's) by its question
    as it was stored, cut to ``question_chars`` (``web.max_question_chars``). An exchange whose
    stored answer ``readable`` refuses is left out altogether: the text of its messages would
    give the model the same claims. One with no stored answer keeps the text of its messages
    (an apology after a failure, which a "try again" needs), unless it is unmatched and any
    answer of ``turns`` is refused: then it is left out too.
    """
    stored: dict[str, tuple[Turn, str]] = {}
    for turn in turns:  # oldest first: the latest answer to a question wins
        text = _stored_text(turn)
        if text is not None:
            stored[turn.question] = (turn, text)
    hidden_somewhere: list[bool] = []  # worked out once, when an exchange is unmatched

    def fails_closed() -> bool:
        if not hidden_somewhere:
            hidden_somewhere.append(any_hidden(turns, readable))
        return hidden_somewhere[0]

    kept: list[Exchange] = []
    for index, exchange in enumerate(history):
        recorded = answered_by[index] if index < len(answered_by) else ()
        if recorded:
            answers = [turn for turn in recorded if answered(turn)]
            if any(not readable(turn) for turn in answers):
                continue
            text = next((t for t in map(_stored_text, reversed(answers)) if t), None)
            kept.append(exchange if text is None else Exchange(exchange.question, text))
            continue
        asked = exchange.question
        if question_chars is not None:
            asked = fit_question(asked, question_chars)[0]
        found = stored.get(asked)
        if found is not None:
            if readable(found[0]):
                kept.append(Exchange(question=exchange.question, answer=found[1]))
        elif not fails_closed():
            kept.append(exchange)
    return tuple(kept)


@dataclass(frozen=True)
class Continued:
    """The stored conversation a message continues, and what its history is made of: the reply
    chain's exchanges (oldest first), all of the conversation's stored turns, and for each
    exchange the turns its messages were recorded for (none when unrecorded); and the id of
    the bot's message it replies to (None: none that is there)."""

    conversation: str
    chain: tuple[Exchange, ...]
    turns: tuple[Turn, ...]
    answered_by: tuple[tuple[Turn, ...], ...] = ()
    replied_to: int | None = None

    def history_for(
        self, audience: frozenset[str], files: FileIndex | None, question_chars: int | None = None
    ) -> tuple[Exchange, ...]:
        """The history for the model when the answer's readers are ``audience`` (the channel's,
        as the answer is computed for): the chain's exchanges with their stored answers, less
        those ``audience`` may no longer see, a knowledge-base file counting as the index
        ``files`` has it now (:func:`bot.connectors.web_turn_page.visible_answer`)."""

        def readable(turn: Turn) -> bool:
            return visible_answer(turn, audience, files) is not None

        return with_stored_answers(
            self.chain, self.turns, readable, question_chars, self.answered_by
        )
