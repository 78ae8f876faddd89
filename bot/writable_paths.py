"""Why this user cannot write a SQLite file at a path, in words that name the fix.

SQLite's "attempt to write a readonly database" and the system's "Permission denied" name
neither the file at fault nor what to do. The index (``index.path``) and the store
(``store.path``, with its ``.lock`` beside it) both say it the same way: which file or folder
is read-only for this user, and to make it writable or point the setting elsewhere.
"""

from __future__ import annotations

import os
from pathlib import Path


def unwritable(path: Path, key: str) -> str:
    """Why this user cannot write the database at ``path`` (set by the config key ``key``),
    as a clause to add to SQLite's or the system's words, or "" when the file and its folder
    look writable."""
    if path.is_dir():
        return f"; {path} is a folder: set {key} to a file name"
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent  # the folder that would have to hold the new ones
    if not folder.is_dir():
        return f"; {folder} is a file, not a folder: set {key} to a file in a folder"
    if path.exists() and not os.access(path, os.W_OK):
        return f"; {path} is read-only for this user: make it writable or set {key}"
    if not os.access(folder, os.W_OK | os.X_OK):
        # a writable database in a read-only folder fails too: SQLite writes -wal and -shm
        # (and the store its .lock) there
        beside = " (SQLite writes its -wal and -shm files there)" if path.exists() else ""
        return (
            f"; the folder {folder} is not writable for this user{beside}: "
            f"make it writable or set {key}"
        )
    return ""
