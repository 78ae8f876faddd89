"""The knowledge base: readers (Markdown and MDX, text, HTML, PDF), chunking, the SQLite FTS5 index,
streaming ingestion and record tables."""

from bot.knowledge.index import IndexStats, KnowledgeIndex
from bot.knowledge.ingest import IngestReport, Skipped, ingest

__all__ = ["IndexStats", "IngestReport", "KnowledgeIndex", "Skipped", "ingest"]
