"""Whether a stored source was found in the knowledge index, told from the source alone.

A stored answer keeps each source it cited or read as it was found, and the index that found
it may be gone since: ``citecast ingest --rebuild`` over fewer folders, or the index deleted
and built again. Who may read such a file now depends on where it came from
(:mod:`bot.connectors.web_file_access`): a knowledge-base file outside every folder the index
covers now was dropped from the knowledge base with its folder, while a file an answerer cited
from ``web.file_roots`` alone never had an index to speak for it.

The index gives every passage it returns one shape (``bot.knowledge.index``): ``kind``
``"passage"``, its ``chunk`` number, its file's absolute ``path``, and the id
``relpath#chunk``, where ``relpath`` is the end of that path (the file's path from its
ingested root's parent, with more parent folders when another file had it, or the whole
path: ``IndexWriter.relpath_for``). That shape is what :func:`found_in_index` checks; whether
the file is still on disk says nothing about where it came from and is not looked at.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from bot.models import Source


def found_in_index(source: Source) -> bool:
    """True when ``source`` is a passage the knowledge index returned: a ``"passage"`` with a
    ``chunk``, a ``path``, and the id ``relpath#chunk`` whose ``relpath`` ends that path.

    An answerer's own source for a file (a ``web.file_roots`` file, say) is told apart by any
    of these: another kind, no chunk, or an id that is not its path's end and chunk."""
    if source.kind != "passage" or source.chunk is None or not source.path:
        return False
    relpath, mark, chunk = source.id.rpartition("#")
    if not mark or not relpath or chunk != str(source.chunk):
        return False
    path = PurePosixPath(source.path).as_posix()
    return path == relpath or path.endswith(f"/{relpath}")
