"""Write access to the knowledge index, used only by ingestion.

Changed files have their chunks replaced in one transaction per batch; files under an ingested
root that this run did not index are removed, and so is any indexed file (or root) whose path
no longer exists, wherever it came from; ``generation`` is bumped when anything changed so
caches of search results know to forget.

Every transaction takes the write lock as it begins (``BEGIN IMMEDIATE``): a second ingest run
into the same index waits for the first one's batch to be committed (up to 30 s), where a
transaction that had read first failed at once with "database is locked".

A file's ``relpath`` is the first half of its source ids (``relpath#chunk``), so it is unique
in the index and kept while the file stays indexed: see :meth:`IndexWriter.relpath_for`.

What ``index.path`` holds before a run, and why it cannot be written, is read by
:mod:`bot.knowledge.index_file`.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from bot.errors import KnowledgeIndexError
from bot.knowledge.chunking import Chunk
from bot.knowledge.cjk import fts_text
from bot.knowledge.document import Document
from bot.knowledge.index_damage import damaged, is_damage, refuse_damaged
from bot.knowledge.index_file import folder_problem, refuse_foreign, unwritable
from bot.knowledge.page_spans import encode_page_starts
from bot.knowledge.run_free import RunFreePages
from bot.knowledge.schema import (
    add_lookup_indexes,
    audience_column,
    check_schema,
    create_schema,
)
from bot.private_files import create_private_file, make_private_folder

# how long the checkpoint after a run waits for a reader (a search) to let go of the -wal
_CHECKPOINT_WAIT_MS = 2000


class IndexWriter:
    """Creates (or opens and checks) the index file and applies one ingest run to it."""

    def __init__(self, path: str | Path, *, rebuild: bool = False) -> None:
        self.path = Path(path)
        if rebuild:
            refuse_foreign(self.path)
            for leftover in (self.path, Path(f"{self.path}-wal"), Path(f"{self.path}-shm")):
                leftover.unlink(missing_ok=True)
        fresh = not self.path.exists()
        try:
            # private to this account: the index holds every private document's text
            make_private_folder(self.path.parent)
            if fresh:
                create_private_file(self.path)
            # IMMEDIATE: every transaction takes the write lock as it begins, waiting up to the
            # timeout for another ingest to commit. A deferred one read first (a fingerprint)
            # and, when another run had committed since, failed at its first write with
            # "database is locked" at once: SQLite cannot wait for a newer snapshot.
            self.conn = sqlite3.connect(self.path, timeout=30, isolation_level="IMMEDIATE")
            self.conn.execute("PRAGMA journal_mode = WAL")
            self.conn.execute("PRAGMA synchronous = NORMAL")
            self.conn.execute("PRAGMA foreign_keys = ON")
            # The FTS row of a chunk holds its CJK characters spaced apart (schema 5); deleting
            # one must give FTS5 those same values, so SQL computes them with this function.
            self.conn.create_function("fts_text", 1, fts_text, deterministic=True)
        except OSError as exc:
            # only making the folder raises OSError: its "[Errno 17] File exists: '…'" is
            # Python's, and names the folder in quotes
            raise KnowledgeIndexError(
                f"cannot open {self.path} for writing: {folder_problem(self.path, exc)}"
            ) from None
        except sqlite3.Error as exc:
            if fresh:  # the empty file made for it would read as an empty index next time
                with suppress(OSError):
                    if self.path.stat().st_size == 0:
                        self.path.unlink()
            elif is_damage(exc):  # its first page written over: no table can be read
                raise damaged(str(self.path), str(exc), None) from None
            raise KnowledgeIndexError(
                f"cannot open {self.path} for writing: {exc}{unwritable(self.path)}"
            ) from None
        if fresh:
            create_schema(self.conn)
        else:
            try:
                check_schema(self.conn, str(self.path))
                # a damaged page refused now: a run finding every file unchanged reads only
                # ``files``, and said all was well while every search failed
                refuse_damaged(self.conn, str(self.path))
            except KnowledgeIndexError:
                self.conn.close()
                raise
            add_lookup_indexes(self.conn)
        self.run = int(
            self.conn.execute("SELECT coalesce(max(run), 0) + 1 FROM files").fetchone()[0]
        )
        # The unchanged files this run saw, in a table of this connection's own (held in a
        # temporary file, never in the index): stamping each one's row with the run, as files
        # written this run are, rewrote the whole ``files`` table on a run that changed
        # nothing, and with a server reading the index its -wal grew by that much every run.
        self.conn.execute("CREATE TEMP TABLE seen (id INTEGER PRIMARY KEY)")
        # every transaction of the run begins here, so what it freed is told from another's
        self.free_pages = RunFreePages(self.conn)
        self.changed = False
        self.wrote = False  # anything committed by this writer: see close()
        # chunks this run deleted (replaced or removed files): their words stay in the search
        # index's segments until it is merged (see bot.knowledge.compaction)
        self.dropped_chunks = 0
        # rows written to ``temp.seen``, which SQLite counts among the connection's changes
        # though they never reach the index (see close())
        self._seen_rows = 0

    def close(self) -> None:
        """Commit and close; after a run that wrote, move the -wal into the index file.

        Closing the last connection does that by itself, but a server reading the index holds
        one open: its -wal then kept every page each run wrote, and never shrank. A reader in
        the middle of a search is waited for briefly, then the log is left for SQLite's own
        checkpoints (a busy checkpoint is no error).
        """
        # Not only chunks and files: a new folder remembered (``roots``), an ``--audience``
        # stored are written too, and a run that added only an empty folder grew the -wal by
        # 8 KB that nothing moved into the index while a server read it.
        wrote = self.wrote or self.changed or self.conn.total_changes > self._seen_rows
        self.conn.commit()
        try:
            if wrote:
                self.conn.execute(f"PRAGMA busy_timeout = {_CHECKPOINT_WAIT_MS}")
                self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        except sqlite3.Error:
            pass  # what the run wrote is committed: the -wal is SQLite's to checkpoint later
        finally:
            self.conn.close()

    @contextmanager
    def one_file(self) -> Iterator[None]:
        """Everything written for one file, or nothing of it.

        An error or a second Ctrl-C half-way through a file rolls back to where the file began,
        so its fingerprint is never saved beside only some of its passages (which every later
        run would have taken as unchanged). Files before it stay, to be committed as usual.
        """
        # a savepoint outside a transaction would start one and commit on release;
        # IMMEDIATE, as every transaction of this connection (see __init__)
        self.free_pages.begin()
        self.conn.execute("SAVEPOINT one_file")
        try:
            yield
        except BaseException:
            self.conn.execute("ROLLBACK TO one_file")
            self.conn.execute("RELEASE one_file")
            raise
        self.conn.execute("RELEASE one_file")

    def add_root(self, root: Path) -> None:
        """Remember an ingested folder or file (absolute)."""
        self.free_pages.begin()
        self.conn.execute("INSERT OR IGNORE INTO roots(path) VALUES (?)", (str(root),))

    def roots(self) -> list[Path]:
        """Every folder or file ingested into this index so far (this run's included)."""
        return [Path(row[0]) for row in self.conn.execute("SELECT path FROM roots ORDER BY path")]

    def relpath_for(self, path: Path, natural: str) -> str:
        """The relpath ``path`` is stored under: unique in the index, stable while indexed.

        A file already indexed keeps its relpath, so re-ingesting it through a subfolder (or
        alone) does not change its ids. A new file takes ``natural`` (its path from the
        ingested root's parent) unless another file has it: ``a/docs`` and ``b/docs`` both
        holding ``guide.md`` would share ids, and a turn's registry would merge the two into
        one citation. Then parent folders are added until it is unique (``b/docs/guide.md``),
        the absolute path as a last resort (no natural relpath starts with ``/``).
        """
        row = self.conn.execute("SELECT relpath FROM files WHERE path = ?", (str(path),))
        found = row.fetchone()
        if found is not None and not self._relpath_taken(str(found[0]), path):
            return str(found[0])
        parts = path.parts[1:] if path.is_absolute() else path.parts
        depth = natural.count("/") + 1
        candidates = [natural, *("/".join(parts[-k:]) for k in range(depth + 1, len(parts) + 1))]
        for candidate in candidates:
            if not self._relpath_taken(candidate, path):
                return candidate
        return path.as_posix()

    def _relpath_taken(self, relpath: str, path: Path) -> bool:
        row = self.conn.execute(
            "SELECT 1 FROM files WHERE relpath = ? AND path != ? LIMIT 1", (relpath, str(path))
        )
        return row.fetchone() is not None

    def fingerprint(self, path: Path) -> str | None:
        """The stored fingerprint of an indexed file, or None when it is not indexed."""
        row = self.conn.execute("SELECT fingerprint FROM files WHERE path = ?", (str(path),))
        found = row.fetchone()
        return None if found is None else str(found[0])

    def mark_seen(self, path: Path) -> None:
        """Keep an unchanged file through this run's removal of vanished files (writing
        nothing to the index: see ``seen``)."""
        seen = self.conn.execute(
            "INSERT OR IGNORE INTO temp.seen(id) SELECT id FROM files WHERE path = ?",
            (str(path),),
        )
        self._seen_rows += max(seen.rowcount, 0)

    def _delete_file_rows(self, file_id: int) -> None:
        # External content: FTS5 removes a row's tokens only when given the values it indexed,
        # which :meth:`replace_file` wrote through the same ``fts_text``.
        self.free_pages.begin()
        self.conn.execute(
            "INSERT INTO chunks_fts(chunks_fts, rowid, title, section, text) "
            "SELECT 'delete', id, fts_text(title), fts_text(section), fts_text(text) "
            "FROM chunks WHERE file_id = ?",
            (file_id,),
        )
        deleted = self.conn.execute("DELETE FROM chunks WHERE file_id = ?", (file_id,))
        self.dropped_chunks += max(deleted.rowcount, 0)

    def replace_file(
        self,
        path: Path,
        relpath: str,
        fingerprint: str,
        size: int,
        document: Document,
        chunks: Iterable[Chunk],
        audience: tuple[str, ...],
    ) -> int:
        """Store ``document``'s chunks in place of the file's old ones; returns the chunk count."""
        row = self.conn.execute("SELECT id FROM files WHERE path = ?", (str(path),)).fetchone()
        if row is not None:
            file_id = int(row[0])
            self._delete_file_rows(file_id)
            self.conn.execute("DELETE FROM files WHERE id = ?", (file_id,))
        cursor = self.conn.execute(
            "INSERT INTO files(path, relpath, fingerprint, size, media_type, title, pages, "
            "chunks, run) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)",
            (
                str(path),
                relpath,
                fingerprint,
                size,
                document.media_type,
                document.title,
                document.pages,
                self.run,
            ),
        )
        file_id = int(cursor.lastrowid or 0)
        groups = audience_column(audience)
        title = fts_text(document.title)
        count = 0
        for chunk in chunks:
            inserted = self.conn.execute(
                "INSERT INTO chunks(file_id, chunk, title, section, page, page_end, audience, "
                "url, text, page_starts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    file_id,
                    chunk.number,
                    document.title,
                    chunk.section,
                    chunk.page,
                    chunk.page_end,
                    groups,
                    document.url,
                    chunk.text,
                    encode_page_starts(chunk.page_starts),
                ),
            )
            self.conn.execute(
                "INSERT INTO chunks_fts(rowid, title, section, text) VALUES (?, ?, ?, ?)",
                (inserted.lastrowid, title, fts_text(chunk.section), fts_text(chunk.text)),
            )
            count += 1
        self.conn.execute("UPDATE files SET chunks = ? WHERE id = ?", (count, file_id))
        self.changed = True
        return count

    def remove_unseen(self, root: Path) -> int:
        """Drop indexed files under ``root`` that this run did not see; returns how many."""
        prefix = str(root).rstrip(os.sep) + os.sep
        rows = self.conn.execute(
            # the files this run neither wrote (``run``) nor found unchanged (``temp.seen``)
            "SELECT id FROM files WHERE run != ? AND id NOT IN (SELECT id FROM temp.seen) "
            "AND (path = ? OR substr(path, 1, ?) = ?)",
            (self.run, str(root), len(prefix), prefix),
        ).fetchall()
        for (file_id,) in rows:
            self._delete_file_rows(int(file_id))
            self.conn.execute("DELETE FROM files WHERE id = ?", (file_id,))
        if rows:
            self.changed = True
        return len(rows)

    def remove_missing(self) -> int:
        """Drop indexed files this run did not see whose path is no longer a file.

        A folder's vanished files go with :meth:`remove_unseen`, but a file ingested alone
        (or from a folder not named this run) that was deleted or renamed would otherwise
        stay searchable for ever. Roots that no longer exist are forgotten too, so the web
        server stops serving under them. Returns how many files were dropped.
        """
        rows = self.conn.execute(
            "SELECT id, path FROM files WHERE run != ? AND id NOT IN (SELECT id FROM temp.seen)",
            (self.run,),
        )
        gone = [int(file_id) for file_id, path in rows.fetchall() if not os.path.isfile(path)]
        for file_id in gone:
            self._delete_file_rows(file_id)
            self.conn.execute("DELETE FROM files WHERE id = ?", (file_id,))
        for root in self.roots():
            if not os.path.exists(root):
                self.free_pages.begin()
                self.conn.execute("DELETE FROM roots WHERE path = ?", (str(root),))
        if gone:
            self.changed = True
        return len(gone)

    def commit(self) -> None:
        """Commit the current batch (bumping the generation once per run that changed data)."""
        if self.changed:
            self.free_pages.begin()
            self.conn.execute(
                "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'"
            )
            self.changed = False
            self.wrote = True
        self.free_pages.end()
        self.conn.commit()
