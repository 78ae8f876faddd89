"""The SQLite schema of the knowledge index and its version check.

``PRAGMA user_version`` holds :data:`SCHEMA_VERSION`. An index written by an older schema is
refused (never silently migrated) with the command that rebuilds it. Schema 4 added
``chunks.page_starts``: where each PDF page begins in a chunk's text, so a citation points at
its quote's page. Schema 5 indexes every Chinese, Japanese and Korean character as a token of
its own (:func:`bot.knowledge.cjk.fts_text`), so words inside a CJK run can be found; an older
index holds whole runs as single tokens, which the new queries would never match. Schema 6 also
indexes each bigram of a CJK run (two neighbouring characters of one script) as a token, so a
two-character word is one token lookup instead of a phrase of two often very common characters;
a schema 5 index has no such tokens.

``chunks_fts`` is an external-content table whose indexed values are ``fts_text`` of the
``chunks`` columns, not the columns themselves: only the writer may insert into or delete from
it (with those values), and FTS5's own ``rebuild``, ``highlight()`` and ``snippet()`` would read
the unspaced text, so nothing uses them; search reads the text shown from ``chunks``.

The ``meta`` table holds ``generation`` (bumped by every ingest that changed something) and
``index_id``, a random id drawn when the file is created. A rebuilt index counts generations
from 0 again, so only the pair tells a reader that results it cached are no longer current.
It also holds one ``audience:/abs/root`` key per root ingested with ``--audience`` (the root's
absolute path after the prefix; the value its groups as :func:`audience_column` stores them):
a later run without ``--audience`` keeps that audience for the root's files
(``bot.knowledge.ingest_audience``), and a ``--rebuild`` carries the keys over.
"""

from __future__ import annotations

import sqlite3

from bot.errors import KnowledgeIndexError
from bot.knowledge.ingest_command import ingest_command, outermost, stored_roots
from bot.knowledge.reader_newer import refuse_newer_reader

SCHEMA_VERSION = 6
REBUILD_HINT = "rebuild it: `citecast ingest --rebuild PATH...` with the folders and files it holds"
# another program's database: a rebuild refuses to replace it
# (bot.knowledge.index_file.foreign_file)
FOREIGN_HINT = "set index.path to a new file, or remove this one if nothing needs it"

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE roots (path TEXT PRIMARY KEY);
CREATE TABLE files (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    relpath TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    size INTEGER NOT NULL,
    media_type TEXT NOT NULL,
    title TEXT,
    pages INTEGER,
    chunks INTEGER NOT NULL,
    run INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE chunks (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    chunk INTEGER NOT NULL,
    title TEXT,
    section TEXT,
    page INTEGER,
    page_end INTEGER,
    audience TEXT NOT NULL,
    url TEXT,
    text TEXT NOT NULL,
    page_starts TEXT
);
CREATE INDEX chunks_by_file ON chunks(file_id, chunk);
CREATE VIRTUAL TABLE chunks_fts USING fts5(
    title, section, text, content='chunks', content_rowid='id', tokenize='porter unicode61'
);
INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('rank', 'bm25(4.0, 2.0, 1.0)');
INSERT INTO meta(key, value) VALUES ('generation', '0');
INSERT INTO meta(key, value) VALUES ('index_id', lower(hex(randomblob(16))));
"""


def create_schema(conn: sqlite3.Connection) -> None:
    """Create every table of an empty index and stamp the schema version."""
    conn.executescript(SCHEMA)
    add_lookup_indexes(conn)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    conn.commit()


def add_lookup_indexes(conn: sqlite3.Connection) -> None:
    """Indexes that only speed up ingestion; added to an existing index of this schema too.

    Ingestion looks a new file's relpath up to keep source ids unique, once per file.
    """
    conn.execute("CREATE INDEX IF NOT EXISTS files_by_relpath ON files(relpath)")


def check_schema(conn: sqlite3.Connection, where: str) -> None:
    """Raise KnowledgeIndexError unless ``conn`` holds an index of the current schema, none of
    whose files a newer citecast's reader read (:mod:`bot.knowledge.reader_newer`)."""
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        tables = {
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
    except sqlite3.DatabaseError as exc:
        # its schema page written over (a disk fault) is damage, not another program's file
        what = "is damaged" if "malformed" in str(exc) else "is not a citecast index"
        raise KnowledgeIndexError(f"{where} {what} ({exc}); {REBUILD_HINT}") from None
    needed = {"files", "chunks", "chunks_fts"}
    if version == SCHEMA_VERSION and needed <= tables:
        # same schema, but a newer reader's files (after a downgrade): refused, as a newer
        # schema is, before this citecast serves them or re-reads them as public
        refuse_newer_reader(conn, where)
        return
    if version == 0:
        # every schema citecast ever wrote set user_version: an empty file, or another program's
        if not tables:
            raise KnowledgeIndexError(
                f"{where} is not a citecast index (an empty database); {REBUILD_HINT}"
            )
        what = f"tables: {', '.join(sorted(tables))}"
        raise KnowledgeIndexError(f"{where} is not a citecast index ({what}); {FOREIGN_HINT}")
    if version == SCHEMA_VERSION:
        missing = ", ".join(sorted(needed - tables))
        raise KnowledgeIndexError(f"{where} is damaged (no {missing} table); {REBUILD_HINT}")
    if version < SCHEMA_VERSION:
        raise KnowledgeIndexError(
            f"{where} was built by an older citecast (schema {version}, "
            f"this one reads {SCHEMA_VERSION}); {rebuild_hint(conn)}"
        )
    raise KnowledgeIndexError(
        f"{where} was built by a newer citecast (schema {version}); upgrade citecast or "
        f"{rebuild_hint(conn)}"
    )


def rebuild_hint(conn: sqlite3.Connection) -> str:
    """The command that rebuilds the index on ``conn`` from the folders and files its
    ``roots`` table names (every schema had one), or :data:`REBUILD_HINT` when none of them
    is left: the user then has to name them."""
    roots = outermost(stored_roots(conn))
    if not roots:
        return REBUILD_HINT
    return f"rebuild it: `{ingest_command(roots, rebuild=True)}`"


def audience_column(groups: tuple[str, ...]) -> str:
    """Groups stored as ``|a|b|`` so one ``instr`` finds a group without false prefixes.

    A group named with ``|`` (or blank) would be read back as other groups (``staff|public``
    as ``staff`` and ``public``): every place that reads groups refuses one, and so does this.
    """
    if any(not group or "|" in group for group in groups):
        raise KnowledgeIndexError(f"group names must not be blank or hold '|': {list(groups)!r}")
    return "|" + "|".join(groups) + "|"


def audience_tuple(column: str) -> tuple[str, ...]:
    """The inverse of :func:`audience_column`."""
    return tuple(g for g in column.split("|") if g)
