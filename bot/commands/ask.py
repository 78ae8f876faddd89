"""``citecast ask "question"``: answer from the knowledge base in the terminal."""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
import sys
from typing import TYPE_CHECKING

from bot.commands.output import one_line
from bot.page_labels import page_label

if TYPE_CHECKING:
    from collections.abc import Sequence

    from bot.config import Settings
    from bot.knowledge.records import RecordTables
    from bot.models import Answer, Citation

HELP = "answer a question from the knowledge base, with a Sources: list"
DESCRIPTION = """\
Answer one question from the knowledge base (built by `citecast ingest`) with the configured
backend, print the answer with citations as [n], then a Sources: list naming each cited source
with its page and section.

examples:
  citecast ask "How do I install citecast?"
  citecast ask "What does the retry policy do?" --json           the canonical Answer JSON
  citecast ask "How do I connect Slack?" --channel slack         the exact Slack payload
  citecast ask "What does the Team plan cost?" --audience staff  answer as a staff member
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the command's options."""
    parser.add_argument("question", help="the question, in quotes")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print the Answer JSON")
    output.add_argument(
        "--channel",
        choices=("web", "slack", "email", "discord", "discourse"),
        help="print this channel's rendered payload (JSON)",
    )
    parser.add_argument(
        "--audience",
        action="append",
        metavar="GROUP",
        help="answer as a viewer in GROUP as well as public (repeatable)",
    )


def unquoted_question_hint(words: Sequence[str]) -> str:
    """What ``citecast ask How do I install`` is told: its own words as one quoted question
    (``citecast ask "How do I install"``), safe to paste back into a shell."""
    question = " ".join(words)
    # double quotes, as the examples write a question, unless the shell would still read
    # something inside them ($, `, \, ", and ! in an interactive bash): then shlex's quotes
    quoted = shlex.quote(question) if set('"$`\\!') & set(question) else f'"{question}"'
    return f"put the whole question in quotes: citecast ask {quoted}"


def source_line(citation: Citation) -> str:
    """``[n] Title — section — p. 3 — where`` for the Sources: list."""
    from renderers.base import section_below_title

    source = citation.source
    parts = [source.display_title]
    section = section_below_title(source)
    if section:
        parts.append(section)
    pages = page_label(source.page, source.page_end)
    if pages is not None:
        parts.append(pages)
    if source.columns and citation.columns:
        parts.append(", ".join(f"{c}: {source.columns[c]}" for c in citation.columns))
    where = source.url or (source.action.url if source.action else None) or source.path
    if not where and source.kind == "record":
        # a row without a link would be named by its label alone ("[1] Berlin"): its id names
        # the table and the row it came from ("offices/BER"), as a file's path does for a passage
        where = source.id
    if where:
        parts.append(where)
    # One source, one line: a file name holding a line break or a tab ("a\nb.md") is shown
    # escaped, as in the ingest summary, never split over two lines (terminal_text keeps both).
    line = one_line(" — ".join(parts))
    return f"[{citation.n}] {line}"


def plain_text(answer: Answer, weak_below: float | None = None) -> str:
    """The answer with ``[^n]`` written ``[n]`` and Markdown's backslash escapes removed
    (``\\[1\\]`` reads ``[1]``, code keeps its backslashes: :mod:`renderers.plain_markdown`),
    then the Sources: list.

    A citation its source only weakly supports is ``[n?]``, as every channel shows it (support
    below ``weak_below``, the ``grounding.threshold``; by default ``RenderContext.weak_below``):
    the terminal must not look surer than Slack or the web.
    An answer with no text (every marker it had was dropped) reads as every channel shows it,
    ``EMPTY_ANSWER``, not as a blank line.
    """
    from renderers.base import EMPTY_ANSWER, RenderContext
    from renderers.plain_markdown import plain_markdown

    below = RenderContext.weak_below if weak_below is None else weak_below
    weak = {
        citation.n
        for citation in answer.citations
        if citation.support is not None and citation.support < below
    }

    def marker(n: int) -> str:
        return f"[{n}?]" if n in weak else f"[{n}]"

    lines = [plain_markdown(answer.text, marker).strip() or EMPTY_ANSWER]
    if answer.citations:
        lines += ["", "Sources:"]
        lines += [source_line(citation) for citation in answer.citations]
    return "\n".join(lines)


def _render(
    channel: str, question: str, answer: Answer, settings: Settings, audience: frozenset[str]
) -> str:
    import renderers
    from renderers.base import RenderContext, capabilities_for

    context = RenderContext(
        public_base_url=settings.web.public_base_url,
        audience=audience,
        capabilities=capabilities_for(channel, settings.capabilities.get(channel)),
        subject=question,  # an email reply is about the question asked, as a mailed one would be
        weak_below=settings.grounding.threshold,  # as the channels mark [n?]
    )
    payload = renderers.render(channel, answer, context)
    return json.dumps(payload, indent=2, ensure_ascii=False)


def check_answerable(settings: Settings, config: str | None, command: str) -> RecordTables | None:
    """Refuse, in one line, settings the assistant could not answer with: a record table that
    cannot be read, or no knowledge index yet (every answer would be "not found").

    ``citecast ask`` and ``citecast eval`` (for its question cases) check this before asking;
    ``config`` is their ``--config``, so the message can say when no config file was found.
    An index with files an older citecast read answers all the same, after the warning
    ``serve`` logs at start, on stderr (``citecast ask: warning: 3 of 11 indexed files …``):
    until they are read again, a file this citecast makes private may still be quoted.
    Returns the record tables, already read, for the assistant (None when none are configured).
    """
    from pathlib import Path

    from bot.config_file import config_origin, without_config_note
    from bot.errors import KnowledgeIndexError
    from bot.knowledge.reader_age import older_reader_warning
    from bot.knowledge.records import check_tables
    from bot.path_lookup import path_state

    records = check_tables(settings.index.records, config_origin(config))
    if not path_state(settings.index.path, error=KnowledgeIndexError).exists:
        # the sample is only worth naming where it is (a checkout of citecast)
        hints = ["try `citecast ingest examples/`"] if Path("examples").is_dir() else []
        note = without_config_note(config)
        raise KnowledgeIndexError(
            f"no knowledge index at {settings.index.path} yet; build one with "
            "`citecast ingest PATH`" + "".join(f" ({hint})" for hint in [*hints, note] if hint)
        )
    if older := older_reader_warning(Path(settings.index.path), config):
        print(f"citecast {command}: warning: {older}", file=sys.stderr, flush=True)
    return records


def run(args: argparse.Namespace) -> int:
    """Answer and print (see :func:`_run`); an error names the ``--config`` given (see
    :mod:`bot.commands.config_named`)."""
    from bot.commands.config_named import naming_config

    with naming_config(args.config):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    """Answer and print."""
    import unicodedata

    from bot.assistant import Assistant
    from bot.commands.output import check_utf8, terminal_text, viewer_groups, write_stdout
    from bot.config_file import load_settings
    from bot.errors import ValidationError
    from bot.knowledge.audience import viewer_audience

    if not args.question.strip():
        raise ValidationError("question is empty")
    # refused as `read_stdin` refuses such bytes, not a traceback when a renderer encodes them
    check_utf8(args.question, "question")
    audience = viewer_audience(viewer_groups(args.audience))
    settings = load_settings(args.config, opens_data=True)
    limit = settings.web.max_question_chars
    # counted as the web chat and POST /api/ask count it, which refuse it too: a question
    # pasted from a whole file would otherwise go to the model (and its bill) in full
    length = len(unicodedata.normalize("NFC", args.question).strip())
    if length > limit:
        raise ValidationError(
            f"question is {length:,} characters long; at most {limit:,} are taken "
            "(web.max_question_chars)"
        )
    records = check_answerable(settings, args.config, "ask")
    assistant = Assistant.from_settings(settings, records)
    answer = asyncio.run(assistant.answer(args.question, audience))
    if args.json:
        text = json.dumps(answer.to_json(), indent=2, ensure_ascii=False)
    elif args.channel:
        text = _render(args.channel, args.question, answer, settings, audience)
    else:
        # the documents' text and titles, read in a terminal: shown, never acted on
        text = terminal_text(plain_text(answer, settings.grounding.threshold))
    write_stdout(text + "\n")
    return 0
