"""The fingerprints ``citecast ingest`` stores for a file it read (``files.fingerprint``).

A fingerprint is the SHA-256 of the file's bytes followed by what of the run decides how it is
read: the options (schema and reader versions, chunk settings), the audience its path's rules
or the run's default gave it, its ``index.url_templates`` URL, and for a symlink the file it
leads to. It starts with the mark of the reader (``r21:``). Ingest stores one of three:

- ``plain``: the bytes read for that audience and URL;
- ``took_default``: the same, for a file that took the run's default audience (unchanged, it is
  still counted among the files keeping an earlier run's audience);
- ``own_audience``: a file (no link) whose front matter names its own audience is read the same
  whatever the rules or default say, so they are left out (empty for a link).

Ingest (:func:`bot.knowledge.ingest_file.ingest_file`) uses them to skip an unchanged file; the
web channel's ``/files/`` (:mod:`bot.knowledge.indexed_bytes`) to tell whether a file on disk
still holds the bytes the index read. Both compute them here, so they cannot drift apart.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hashlib import _Hash


@dataclass(frozen=True)
class Fingerprints:
    """The fingerprints one file's bytes may be stored under (see the module's docstring)."""

    plain: str
    took_default: str
    own_audience: str  # "" for a symlink: its own path's rules always narrow it

    def __contains__(self, stored: object) -> bool:
        return bool(stored) and stored in (self.plain, self.took_default, self.own_audience)


def content_digest(data: bytes) -> _Hash:
    """The SHA-256 of a file's bytes, every fingerprint of the file starts from (copied, never
    changed, by :func:`fingerprints`)."""
    return hashlib.sha256(data)


def fingerprints(
    content: _Hash,
    *,
    mark: str,
    options: str,
    audience: Sequence[str],
    url: str | None,
    link_to: Path | None = None,
) -> Fingerprints:
    """The fingerprints of a file whose bytes hash to ``content`` (:func:`content_digest`, or
    the same digest fed the bytes in parts), read with ``options`` by the reader of ``mark``,
    for ``audience`` (the rules' or the run's default, not the file's own), under the template
    ``url``; ``link_to``: the file a symlink leads to (None: no link)."""
    own_words = content.copy()
    own_words.update(f"|own audience|{options}|{url}".encode())
    digest = content.copy()
    digest.update(f"|{options}|{','.join(audience)}|{url}".encode())
    if link_to is not None:
        # a link and the file it replaced (or another link) differ where the bytes do not: its
        # own path's rules narrow it, and its target may change
        digest.update(f"|link to {link_to}".encode())
    took_default = digest.copy()
    took_default.update(b"|default")
    return Fingerprints(
        mark + digest.hexdigest(),
        mark + took_default.hexdigest(),
        mark + own_words.hexdigest() if link_to is None else "",
    )
