"""Writing a command's output file whole or not at all (``citecast preview --out F``).

The text goes to a temporary file in the same folder, which is renamed over ``F`` only once all
of it is written and flushed: a full disk, a quota or a crash part-way leaves the old ``F`` (or
none), never a truncated page, and the temporary file is removed. A rename within one folder
replaces the file in one step, so a reader sees the old file or the new one.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path


def write_whole(path: Path, text: str) -> None:
    """Replace the file at ``path`` with ``text`` (UTF-8) in one step; OSError when it cannot.

    A symlink at ``path`` is written through, as opening it for writing would: its target is
    replaced, the link kept. The new file keeps the permission bits of the file it replaces; a
    new one gets those of any file this process creates (0666 less the umask). What is no
    regular file (``/dev/null``, ``/dev/stdout``, a named pipe) is written into as before:
    replacing it would put a file where the device or pipe was. A file this user may not
    write (mode 0o444) is refused (PermissionError), as ``citecast eval --out`` refuses it:
    the rename would replace it all the same, since only the folder's permission counts.
    """
    try:
        info: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode):
        with open(path, "w", encoding="utf-8") as handle:  # a folder: IsADirectoryError
            handle.write(text)
        return
    if info is not None:
        # opened for writing (not truncated) only to ask the system whether it may be
        os.close(os.open(path, os.O_WRONLY | os.O_CLOEXEC))
    target = Path(os.path.realpath(path))
    mode = None if info is None else stat.S_IMODE(info.st_mode)
    fd, temporary = _create_beside(target)
    try:
        try:
            data = memoryview(text.encode("utf-8"))
            while data:
                data = data[os.write(fd, data) :]
            if mode is not None:
                os.fchmod(fd, mode)
            os.fsync(fd)  # on disk before the rename: a crash must not leave an empty file
        finally:
            os.close(fd)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _create_beside(target: Path) -> tuple[int, Path]:
    """A new, empty, hidden file in ``target``'s folder, open for writing, and its path."""
    for _ in range(100):
        temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
        try:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
            return os.open(temporary, flags, 0o666), temporary
        except FileExistsError:  # another run's temporary file: take another name
            continue
    raise FileExistsError(f"no free temporary name beside {target}")
