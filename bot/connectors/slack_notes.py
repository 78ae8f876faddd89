"""The short notes a Slack asker gets in the thread before the answer.

Two things the asker cannot see from the answer alone: that a long question was cut to
``web.max_question_chars`` (the assistant read only its start), and that the files the message
carries (a screenshot, a log) were not read at all. "What does this log mean?" with a log
attached is a common Slack question, and an answer from the knowledge base alone would read as
one about the file. Both notes go in one message, so the answer (and its citations) stays as
the renderer made it.
"""

from __future__ import annotations

from dataclasses import replace

from bot.connectors.base import fit_question, question_note
from bot.connectors.slack_events import SlackQuestion


def question_notes(question: SlackQuestion, limit: int) -> tuple[SlackQuestion, str | None]:
    """``question`` as the assistant reads it (cut to ``limit`` characters), and the note to
    post before its answer (None when there is nothing to say)."""
    text, cut = fit_question(question.text, limit)
    if cut:
        question = replace(question, text=text)
    return question, question_note(limit if cut else None, question.has_files)
