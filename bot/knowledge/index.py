"""The knowledge index: an embedded SQLite FTS5 database of chunks, ranked with BM25.

Each chunk becomes a :class:`bot.models.Source` with ``id`` ``"<relpath>#<chunk>"`` (stable
across re-ingestion of an unchanged file), ``path`` the file's **absolute** path (so connectors
can attach it and the web server can serve it), ``filename``, ``media_type``, ``page`` /
``page_end`` (PDF), ``section`` (heading path), ``chunk`` and ``audience``. The ingested roots
are stored too: :meth:`KnowledgeIndex.roots` and :meth:`KnowledgeIndex.has_file` let the web
server refuse any file that is not part of the knowledge base.

A chunk that crosses a PDF page break also has a page map (:meth:`KnowledgeIndex.page_starts`),
which narrows a citation of it to the page its quote is on (:mod:`bot.knowledge.page_spans`).

Reads use one connection per thread (:mod:`bot.knowledge.index_connections`), so tools may
search concurrently from worker threads.
Every read that fails is a KnowledgeIndexError, never a raw sqlite3 error: a damaged index
names the ``citecast ingest --rebuild`` command that cures it (:mod:`bot.knowledge.index_damage`).
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.errors import KnowledgeIndexError
from bot.knowledge.audience import viewer_audience
from bot.knowledge.index_connections import ThreadConnections
from bot.knowledge.index_damage import read_error
from bot.knowledge.page_spans import PageStarts, decode_page_starts
from bot.knowledge.query_plan import QueryPlan, plan_query, widen
from bot.knowledge.schema import audience_tuple, check_schema
from bot.models import Source

log = logging.getLogger(__name__)

_SEARCH_FAST = (
    "SELECT c.id, c.chunk, c.title, c.section, c.page, c.page_end, c.audience, c.url, c.text, "
    "f.relpath, f.path, f.media_type, hit.rank FROM (SELECT rowid, rank FROM chunks_fts "
    "WHERE chunks_fts MATCH ? AND rowid <= ? ORDER BY rank LIMIT ?) AS hit "
    "JOIN chunks c ON c.id = hit.rowid JOIN files f ON f.id = c.file_id "
    "WHERE EXISTS (SELECT 1 FROM json_each(?) AS g "
    "WHERE instr(c.audience, '|' || g.value || '|') > 0) ORDER BY hit.rank LIMIT ?"
)
_SEARCH_FULL = (
    "SELECT c.id, c.chunk, c.title, c.section, c.page, c.page_end, c.audience, c.url, c.text, "
    "f.relpath, f.path, f.media_type, chunks_fts.rank FROM chunks_fts "
    "JOIN chunks c ON c.id = chunks_fts.rowid JOIN files f ON f.id = c.file_id "
    "WHERE chunks_fts MATCH ? AND chunks_fts.rowid <= ? "
    "AND EXISTS (SELECT 1 FROM json_each(?) AS g "
    "WHERE instr(c.audience, '|' || g.value || '|') > 0) ORDER BY chunks_fts.rank LIMIT ?"
)
_BY_ID = (
    "SELECT c.id, c.chunk, c.title, c.section, c.page, c.page_end, c.audience, c.url, c.text, "
    "f.relpath, f.path, f.media_type FROM chunks c JOIN files f ON f.id = c.file_id "
    "WHERE f.relpath = ? AND c.chunk = ?"
)
_FILE_AUDIENCES = (
    "SELECT DISTINCT f.media_type, c.audience, f.title FROM files f "
    "JOIN chunks c ON c.file_id = f.id WHERE f.path = ?"
)
_PAGE_STARTS = (
    "SELECT c.text, c.page_starts FROM chunks c JOIN files f ON f.id = c.file_id "
    "WHERE f.relpath = ? AND c.chunk = ?"
)


@dataclass(frozen=True)
class IndexStats:
    """Counts and size of an index, for summaries and benchmarks."""

    files: int
    chunks: int
    pages: int
    size_bytes: int


def _source_from_row(row: sqlite3.Row | tuple[Any, ...]) -> Source:
    (_, chunk, title, section, page, page_end, audience, url, text, relpath, path, media) = row[:12]
    return Source(
        id=f"{relpath}#{chunk}",
        title=title,
        url=url,
        filename=Path(path).name,
        path=path,
        media_type=media,
        page=page,
        page_end=page_end,
        section=section,
        chunk=chunk,
        text=text,
        audience=audience_tuple(audience),
        kind="passage",
    )


def _ranked(
    conn: sqlite3.Connection, plan: QueryPlan, viewer: str, limit: int
) -> list[tuple[Any, ...]]:
    """Rows of ``plan`` that ``viewer`` (a JSON list of groups) may see, best first."""
    # Rank a few more than needed without the audience filter (the fast path), then filter;
    # only when that leaves too few, rank every visible match.
    fetch = limit * 4
    rows: list[tuple[Any, ...]] = conn.execute(
        _SEARCH_FAST, (plan.match, plan.max_rowid, fetch, viewer, fetch)
    ).fetchall()
    if len(rows) < limit:
        rows = conn.execute(_SEARCH_FULL, (plan.match, plan.max_rowid, viewer, fetch)).fetchall()
    if plan.boosts:
        rows.sort(key=lambda row: plan.adjust(float(row[12]), row[8]))
    return rows


class KnowledgeIndex:
    """Read access to an index built by ``citecast ingest``."""

    def __init__(self, path: str | Path, *, rank_budget: int = 1000) -> None:
        self.path = Path(path)
        self.rank_budget = rank_budget
        if not self.path.exists():
            raise KnowledgeIndexError(
                f"no knowledge index at {self.path}; build one with `citecast ingest PATH`"
            )
        self._connections = ThreadConnections(
            self.path, lambda conn: check_schema(conn, str(self.path))
        )

    @contextmanager
    def _reading(self, doing: str = "read") -> Iterator[sqlite3.Connection]:
        """This thread's connection, whose sqlite3 errors inside the block become one
        KnowledgeIndexError (:func:`bot.knowledge.index_damage.read_error`)."""
        with self._connections.held() as conn:
            try:
                yield conn
            except sqlite3.Error as exc:
                raise read_error(str(self.path), exc, conn, doing) from None

    def close(self) -> None:
        """Close this thread's connection (others close when their thread ends)."""
        self._connections.close()

    def search(
        self, query: str, audience: Iterable[str] = ("public",), limit: int = 5
    ) -> list[Source]:
        """The best ``limit`` chunks for ``query`` that a viewer in ``audience`` may see.

        The viewer always sees ``public`` chunks as well as their groups' (:func:`viewer_audience`).
        """
        groups = sorted(viewer_audience(audience))
        if limit < 1:
            return []
        viewer = json.dumps(groups)
        with self._reading("search") as conn:
            plan = plan_query(conn, query, self.rank_budget)
            if plan is None:
                return []
            rows = _ranked(conn, plan, viewer, limit)
            if len(rows) < limit:
                # The plan was cut to the budget counting every row, also those the viewer
                # may not see: theirs may hold only the words it dropped, or lie beyond its cap.
                wider = widen(conn, plan, viewer, len(rows), self.rank_budget)
                if wider is not None:
                    seen = {row[0] for row in rows}
                    more = _ranked(conn, wider, viewer, limit)
                    rows += [row for row in more if row[0] not in seen]
        return [_source_from_row(row) for row in rows[:limit]]

    def source(self, source_id: str) -> Source | None:
        """The chunk with this ``"<relpath>#<chunk>"`` id, if it is indexed."""
        relpath, _, chunk = source_id.rpartition("#")
        if not relpath or not chunk.isdigit():
            return None
        with self._reading() as conn:
            row = conn.execute(_BY_ID, (relpath, int(chunk))).fetchone()
        return None if row is None else _source_from_row(row)

    def page_starts(self, source: Source) -> PageStarts | None:
        """Where each page begins in the text of chunk ``source``, if it crosses a page break.

        None when there is no map: a chunk on one page or not from a PDF, or a ``source``
        whose text is not the indexed chunk's any more (a re-ingest since it was found): a map
        of other text would point at a wrong page. Never raises: the map only sharpens a
        citation, so an index that cannot be read leaves it as it is.
        """
        relpath, _, chunk = source.id.rpartition("#")
        if not relpath or not chunk.isdigit() or source.text is None:
            return None
        try:
            with self._connections.held() as conn:
                row = conn.execute(_PAGE_STARTS, (relpath, int(chunk))).fetchone()
        except (sqlite3.Error, KnowledgeIndexError) as exc:
            log.warning("cannot read page map of %s from %s: %s", source.id, self.path, exc)
            return None
        if row is None or row[0] != source.text:
            return None
        return decode_page_starts(row[1])

    def roots(self) -> list[Path]:
        """The absolute folders and files that were ingested into this index."""
        with self._reading() as conn:
            rows = conn.execute("SELECT path FROM roots ORDER BY path").fetchall()
        return [Path(row[0]) for row in rows]

    def has_file(self, path: str | Path) -> bool:
        """True when ``path`` is a file whose chunks are in this index."""
        try:
            resolved = str(Path(path).resolve())
        except OSError:
            return False
        with self._reading() as conn:
            row = conn.execute("SELECT 1 FROM files WHERE path = ?", (resolved,)).fetchone()
        return row is not None

    def file_source(self, path: str | Path) -> Source | None:
        """The indexed file at ``path`` (absolute, resolved) as a ``kind="file"`` Source with
        its audience, media type and title, or None when it is not indexed. Ingest gives every chunk
        of a file the file's audience; chunks that disagree (never written by ingest) count as
        not indexed, so a file is never shown on the laxer of two audiences."""
        with self._reading() as conn:
            rows = conn.execute(_FILE_AUDIENCES, (str(path),)).fetchall()
        audiences = {str(row[1]) for row in rows}
        if len(audiences) != 1:
            return None
        found = Path(path)
        return Source(
            id=str(found),
            path=str(found),
            filename=found.name,
            media_type=str(rows[0][0]) or None,
            title=rows[0][2] or None,
            audience=audience_tuple(audiences.pop()),
            kind="file",
        )

    def generation(self) -> int:
        """A counter bumped by every ingest that changed something (cache invalidation)."""
        return self.version()[1]

    def version(self) -> tuple[str, int]:
        """``(index_id, generation)``: what a cache of this index's results must be keyed on.

        The generation alone repeats: ``citecast ingest --rebuild`` starts a new file whose
        generation counts from 0 again, so a server would serve results cached from the old
        index (say, a document that has since become private). ``index_id`` is drawn at random
        when the file is created; an index from before it existed reads as ``""``.
        """
        with self._reading() as conn:
            rows = dict(
                conn.execute(
                    "SELECT key, value FROM meta WHERE key IN ('index_id', 'generation')"
                ).fetchall()
            )
        return str(rows.get("index_id", "")), int(rows.get("generation", 0))

    def stats(self) -> IndexStats:
        """Files, chunks, PDF pages and bytes on disk."""
        with self._reading() as conn:
            files, pages = conn.execute(
                "SELECT count(*), coalesce(sum(pages), 0) FROM files"
            ).fetchone()
            chunks = conn.execute("SELECT count(*) FROM chunks").fetchone()[0]
        size = sum(
            p.stat().st_size
            for p in (self.path, Path(f"{self.path}-wal"), Path(f"{self.path}-shm"))
            if p.exists()
        )
        return IndexStats(int(files), int(chunks), int(pages), size)
