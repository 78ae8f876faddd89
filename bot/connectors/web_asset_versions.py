"""The content hash of each file under ``static/``, which the pages' asset URLs carry.

A release before ``/static/*`` said ``Cache-Control: no-cache`` let browsers keep ``chat.js`` and
``chat.css`` for a tenth of their age unasked (heuristic freshness), and a URL such a browser
holds stays stale whatever this release sends. So the chat page, the shared-answer pages and
the widget name each file as ``static/chat.js?v=<hash of its content>``: a URL no older release
handed out, and a new one whenever the file changes. The server ignores the query and sends the
file it has (``no-cache``, see ``web_assets``), so an unversioned URL, or a stale one in a cached
page or a copied ``widget.js``, still gets the current file. The hashes are read once, as the
server starts (an upgrade restarts it).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

STATIC_DIR = Path(__file__).with_name("static")
HASH_CHARS = 12  # 48 bits: enough to tell a release's copy of a file from another's


@dataclass(frozen=True)
class AssetVersions:
    """Each static file's name mapped to the first ``HASH_CHARS`` hex digits of its SHA-256,
    and the newest modification time among them (seconds since the epoch)."""

    hashes: Mapping[str, str]
    newest: float

    def url(self, name: str, folder: str = "static/") -> str:
        """``folder + name`` with its version (``static/chat.js?v=…``); a name without a file
        stays unversioned rather than failing the page."""
        version = self.hashes.get(name)
        return f"{folder}{name}?v={version}" if version else f"{folder}{name}"


def read_versions(directory: Path) -> AssetVersions:
    """The versions of the files directly in ``directory``."""
    files = sorted(path for path in directory.iterdir() if path.is_file())
    hashes = {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest()[:HASH_CHARS] for path in files
    }
    newest = max((path.stat().st_mtime for path in files), default=0.0)
    return AssetVersions(MappingProxyType(hashes), newest)


@functools.cache
def asset_versions() -> AssetVersions:
    """The versions of this release's ``static/`` files, read on first use."""
    return read_versions(STATIC_DIR)
