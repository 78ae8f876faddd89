"""How a model step must end: said why (``finish_reason``), and with something to show.

A model may refuse instead (OpenAI's ``refusal`` field beside a ``content`` of null, streamed as
``delta.refusal``): that is its answer, and the viewer reads it as one, citing nothing, rather
than an error that says "try again" (asking again gets the same refusal) or "an empty answer"
(it was not empty). The operator sees a warning with the refusal. A marker the model put in
its refusal ("I cannot share that [1].") is left out: a refusal cites nothing, and the marker
would otherwise cite a source or show as written.

Split out of :mod:`bot.assistant.openai_backend` for size.
"""

from __future__ import annotations

import logging

from bot.assistant.openai_errors import one_line
from bot.assistant.openai_setup import length_hint
from bot.assistant.openai_step import FAILED_FINISH, NORMAL_FINISH, Step
from bot.errors import BackendError
from bot.markers import Grammar, Marker, MarkerScanner

# the backend's logger: these lines are the backend's, and operators filter the log by it
log = logging.getLogger("bot.assistant.openai_backend")

# Why a step can end with nothing to show, said after its finish_reason: a reasoning model whose
# server keeps its thinking apart (vLLM's reasoning parser, Ollama, LM Studio) can spend the
# whole token limit thinking, and "an empty answer" alone reads as a broken server.
EMPTY_REASONS = {
    "length": ": the model reached its length limit before it wrote any answer "
    "(a reasoning model's thinking counts toward it)",
    "content_filter": ": the model's content filter stopped it before it wrote any answer",
}


def refusal_answer(step: Step, where: str) -> str:
    """The model's refusal as the step's answer text, when it refused and wrote nothing else
    (no text, no tool calls); "" otherwise. Logged as a warning."""
    refusal = step.refusal.strip()
    if not refusal or step.asked_for_tools or "".join(step.text).strip():
        return ""
    log.warning(
        "the model at %s refused to answer (finish_reason %r); its refusal is the answer, "
        "citing nothing: %s",
        where,
        step.finish_reason,
        one_line(refusal),
    )
    shown = _without_markers(refusal)
    step.text.append(shown)
    return shown


def _without_markers(text: str) -> str:
    """``text`` less its citation markers (an opener's spaces kept, as the resolver keeps them)."""
    kept: list[str] = []
    for token in MarkerScanner(Grammar()).scan_all(text):
        if not isinstance(token, Marker):
            kept.append(token)
        elif token.family == "opener":
            kept.append(token.lead)
    return "".join(kept)


def check_step_end(step: Step, where: str, max_tokens: int | None) -> None:
    """A step must have ended as a step ends, and have written something."""
    if step.finish_reason is None:
        raise BackendError(
            f"the model endpoint at {where} ended the stream before the answer was "
            "complete (no finish_reason)"
        )
    if step.finish_reason in FAILED_FINISH:
        raise BackendError(
            f"the model endpoint at {where} stopped the answer with an error"
            + (f": {step.error}" if step.error else f" (finish_reason {step.finish_reason!r})")
        )
    cut = step.finish_reason == "length"
    if not step.asked_for_tools and not "".join(step.text).strip():
        raise BackendError(
            f"the model endpoint at {where} returned an empty answer "
            f"(finish_reason {step.finish_reason!r}"
            + EMPTY_REASONS.get(step.finish_reason, "")
            + (f"; {length_hint(max_tokens)}" if cut else "")
            + ")"
        )
    if cut:
        log.warning(
            "the model at %s reached its length limit (finish_reason 'length'); the answer "
            "was cut off (%s)",
            where,
            length_hint(max_tokens),
        )
    elif step.finish_reason not in NORMAL_FINISH:
        # a content filter, or a reason citecast does not know: what was written is still
        # worth showing
        log.warning(
            "the model at %s stopped with finish_reason %r; the answer may be incomplete",
            where,
            step.finish_reason,
        )
