"""Question cases answered live by the configured assistant over its knowledge index.

``citecast eval`` and the sample-questions test both ask through :func:`live_assistant`, so the
test measures exactly what the command reports.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.config import Settings
from bot.errors import CitecastError
from bot.evaluation.dataset import EvalCase, check_known_sources
from bot.evaluation.runner import AskFn
from bot.knowledge.audience import document_audience
from bot.knowledge.records import RecordTables
from bot.models import Answer, Source
from bot.registry import SourceRegistry


@dataclass(frozen=True)
class LiveAssistant:
    """How question cases are put to the assistant, and how their gold sources are looked up."""

    ask: AskFn
    lookup: Callable[[str], Source | None]


def live_assistant(
    settings: Settings, records: RecordTables | None, data: Path, cases: Sequence[EvalCase]
) -> LiveAssistant:
    """The configured assistant over ``settings.index.path``, once every gold id in ``cases``
    is known (a gold id the index does not hold, a sample file edited and its passages
    renumbered, is refused here rather than measured as the assistant missing it)."""
    from bot.assistant import Assistant
    from bot.knowledge import KnowledgeIndex

    index = KnowledgeIndex(settings.index.path)
    tables = set(records.names) if records else set()

    def known(source_id: str) -> bool:
        # a record ("products/P-100") is not in the index; its table is checked, not its row
        return source_id.partition("/")[0] in tables or index.source(source_id) is not None

    check_known_sources(data, cases, known)
    assistant = Assistant.from_settings(settings, records)

    async def ask(question: str, audience: frozenset[str]) -> tuple[Answer, SourceRegistry]:
        reply = await assistant.reply(question, audience)
        return reply.answer, SourceRegistry.from_json(reply.registry)

    return LiveAssistant(ask, _lookup(index.source, settings, records))


def _lookup(
    indexed: Callable[[str], Source | None], settings: Settings, records: RecordTables | None
) -> Callable[[str], Source | None]:
    """A label's source by id: a passage from the index, a record (``offices/BRS``) from its
    table, whatever the answer retrieved.

    A label judges a claim against its source, so a record label the answer did not retrieve
    is scored on the record's values, as a passage label is on the passage's text; it was
    scored 0 against no text and counted as the scorer missing a supported claim. The record
    is read for any viewer: the data set's author names it, not a viewer asking.
    """
    if records is None:
        return indexed
    tables = records
    # every table's groups, as a table's audience is read ("staff, hr" is two): all visible
    groups = frozenset(
        group for table in settings.index.records for group in document_audience(table.audience)
    )

    def lookup(source_id: str) -> Source | None:
        name, slash, key = source_id.partition("/")
        if not slash or name not in tables.names:
            return indexed(source_id)
        try:
            found = tables.lookup(name, key, groups, limit=1)
        except CitecastError:
            return None
        return found[0] if found and found[0].id == source_id else None

    return lookup
