"""The files citecast creates for itself: private to the account that runs it.

The knowledge index holds every private document's text and the store every conversation, so
on a shared host they must not be readable by other accounts. Under the usual umask 022 they
were created 0644 in a folder 0755. Now a folder citecast creates for them (``.citecast``) is
0700 and a database file it creates is 0600; SQLite gives the ``-wal``, ``-shm`` and journal
files the mode of their database. Folders and files that already exist keep their mode (an
administrator may share them on purpose): :func:`readable_by_others` says when they are open
to every account, for a warning.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from bot.path_lookup import resolved

FOLDER_MODE = 0o700
FILE_MODE = 0o600


def make_private_folder(folder: Path) -> None:
    """Create ``folder`` (mode 0700) and its missing parents (as the umask makes them) unless
    it exists; an existing folder is left as it is. Raises OSError as ``Path.mkdir`` does."""
    folder.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)


def create_private_file(path: Path) -> None:
    """Create ``path`` empty with mode 0600 when nothing is there (SQLite opens an empty file
    as a new database). Anything already there, even a dangling symlink, is left alone, and a
    failure is left for SQLite to report in its own words when it opens the path."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except OSError:
        return
    os.close(fd)


def readable_by_others(path: Path) -> str | None:
    """Why every account on the host can read ``path`` (its mode lets others read it and every
    folder above it lets them in), or None when it cannot be read so or does not exist;
    ValidationError for a path through a symlink loop (:func:`bot.path_lookup.resolved`)."""
    full = resolved(path)
    try:
        mode = stat.S_IMODE(full.stat().st_mode)
        open_folders = all(folder.stat().st_mode & stat.S_IXOTH for folder in full.parents)
    except OSError:
        return None
    if not (mode & stat.S_IROTH and open_folders):
        return None
    return (
        f"readable by every account on this host (mode {mode:04o}); "
        # the folder's absolute path: serve named a relative one (".citecast") where ingest
        # named an absolute one, and a relative one depends on where the command is run
        f"run `chmod 700 {full.parent}` (or `chmod 600` it and its -wal and -shm files)"
    )


def open_lock_file(path: Path, mode: int = FILE_MODE, *, read_only: bool = False) -> int:
    """A descriptor of the lock file at ``path`` (created with ``mode`` unless it exists),
    never of what a symlink or a second hard link there points at: citecast truncates a lock
    file and writes its pid into it, and anyone who can write its folder (one shared with a
    group) could otherwise aim that at a file of the account running citecast. Raises
    OSError when ``path`` is a symlink, not a regular file, or a file with other names."""
    flags = (os.O_RDONLY if read_only else os.O_RDWR | os.O_CREAT) | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(path, flags, mode)
    found = os.fstat(fd)
    if not stat.S_ISREG(found.st_mode) or found.st_nlink != 1:
        os.close(fd)
        raise OSError(f"{path} is not a lock file of citecast's (a link, or not a plain file)")
    return fd
