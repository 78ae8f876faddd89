"""Signed, expiring download links for cited files that have no public URL (DESIGN §6, §7).

A token names one file inside a knowledge-base root, the audience it was issued for and when it
expires, and is signed with HMAC-SHA256. It carries the file's path *relative to its root* (plus a
short fingerprint of the root), so it never reveals where the knowledge base lives on disk.

``verify`` answers every bad token the same way (:class:`FileTokenError`, one message) whether it
was tampered with, expired, points outside the roots or names a file that no longer exists, so a
caller cannot probe the file system through ``/files/{token}``.

The same signer makes the keys of share links (``/turns/{key}``, ``turn_key``): a turn id signed
for one store and for the turn's stamp (``bind_store``, ``bot.store_identity``), so a link opens
only the answer it was made for, never the same turn id of another store, of a store that
replaced it, or of a later turn that got the id again after the store was restored from a backup.

The secret comes from ``web.file_secret`` (usually ``${CITECAST_FILE_SECRET}``), else the
``CITECAST_FILE_SECRET`` environment variable, else it is generated on first run and kept beside
the store in a file only the owner can read (mode 0600).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import logging
import mimetypes
import os
import re
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from bot.errors import CitecastError, ConfigError, StoreError
from bot.models import Source
from bot.path_lookup import resolved
from bot.private_files import make_private_folder
from bot.store_identity import StoreIdentity

log = logging.getLogger(__name__)

SECRET_ENV = "CITECAST_FILE_SECRET"  # noqa: S105 (a variable name, not a secret)
SECRET_FILENAME = "file_secret"  # noqa: S105 (a file name)
MIN_SECRET_BYTES = 16
_TOKEN_VERSION = 1


class ShareStore(Protocol):
    """What signing share keys needs of a store (``bot.store.Store``): its identity, and the
    stamp of each of its turns (None for an id no turn of it has)."""

    def identity(self) -> StoreIdentity: ...

    def turn_stamp(self, turn_id: int) -> str | None: ...


@dataclass(frozen=True)
class _BoundStore:
    identity: StoreIdentity
    stamp: Callable[[int], str | None]


class FileTokenError(CitecastError):
    """A download token is invalid; deliberately says nothing about why."""

    def __init__(self) -> None:
        super().__init__("invalid or expired download link")


@dataclass(frozen=True)
class FileGrant:
    """What a valid token allows: one file, for one audience, until ``expires_at``."""

    path: Path
    filename: str
    media_type: str
    audience: frozenset[str]
    expires_at: int


_SIGNATURE = re.compile(r"[A-Za-z0-9_-]{32}")  # _b64 of the 24 bytes _sign keeps


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _fingerprint(root: Path) -> str:
    return hashlib.sha256(str(root).encode("utf-8")).hexdigest()[:12]


def _root_path(root: str | Path) -> Path:
    """``root`` resolved; a ConfigError naming it for a symlink loop, where ``resolve()``
    raised a RuntimeError that escaped ``citecast serve`` as a traceback."""
    return resolved(Path(root).expanduser(), shown=root, error=ConfigError)


class FileSigner:
    """Issues and verifies ``/files/{token}`` links for files inside ``roots``.

    ``base_url`` is where the app is reachable (``web.public_base_url``); ``url_for`` accepts a
    per-call override so the web channel can link back to the host a browser used.
    """

    def __init__(
        self,
        secret: bytes,
        base_url: str,
        ttl: int,
        roots: Iterable[str | Path] = (),
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if len(secret) < MIN_SECRET_BYTES:
            raise ConfigError(f"web.file_secret: must be at least {MIN_SECRET_BYTES} bytes long")
        self._secret = secret
        self.base_url = base_url.rstrip("/")
        self.ttl = ttl
        self._clock = clock
        self._store: _BoundStore | None = None
        self._roots: dict[str, Path] = {}
        self.set_roots(roots)

    @property
    def roots(self) -> tuple[Path, ...]:
        """The directories whose files may be served."""
        return tuple(self._roots.values())

    def set_roots(self, roots: Iterable[str | Path]) -> None:
        """Serve files under exactly ``roots`` from now on (links into a dropped root stop
        working). The new set replaces the old in one assignment, so a concurrent ``verify``
        sees one or the other, never a half-built set."""
        found = [_root_path(root) for root in roots]
        self._roots = {_fingerprint(root): root for root in found}

    def add_root(self, root: str | Path) -> None:
        """Allow files under one more directory (for example a newly ingested one)."""
        found = _root_path(root)
        self._roots[_fingerprint(found)] = found

    def _locate(self, path: str | Path) -> tuple[str, str] | None:
        """(root fingerprint, relative path) when ``path`` is a file inside a root."""
        try:
            real = Path(path).expanduser().resolve()
        except (OSError, RuntimeError, ValueError):
            return None
        for key, root in self._roots.items():
            # A root is an ingested folder, or a single ingested file (relative path ".").
            if real.is_relative_to(root):
                return key, real.relative_to(root).as_posix()
        return None

    def token_for(
        self, source: Source, audience: frozenset[str], *, not_after: int | None = None
    ) -> str | None:
        """A token for the source's file, or None (no path, not visible, outside the roots).

        It expires ``ttl`` seconds from now, or at ``not_after`` when that is sooner: a link
        made from another link (the viewer page's links to the files its document names)
        never outlives the link it was made from, so following links cannot renew access."""
        if not source.path or not source.visible_to(audience):
            return None
        located = self._locate(source.path)
        if located is None:
            return None
        root_key, relative = located
        expires = int(self._clock()) + self.ttl
        claims: dict[str, Any] = {
            "v": _TOKEN_VERSION,
            "r": root_key,
            "p": relative,
            "a": sorted(audience),
            "e": expires if not_after is None else min(expires, not_after),
        }
        if source.filename:
            claims["n"] = source.filename
        if source.media_type:
            claims["m"] = source.media_type
        body = _b64(json.dumps(claims, separators=(",", ":"), sort_keys=True).encode("utf-8"))
        return f"{body}.{self._sign(body)}"

    def url_for(
        self, source: Source, audience: frozenset[str], base_url: str | None = None
    ) -> str | None:
        """A signed, expiring download URL for the source, or None when it cannot have one."""
        token = self.token_for(source, audience)
        if token is None:
            return None
        base = self.base_url if base_url is None else base_url.rstrip("/")
        return f"{base}/files/{token}"

    def _sign(self, body: str) -> str:
        digest = hmac.new(self._secret, body.encode("ascii"), hashlib.sha256).digest()
        return _b64(digest[:24])

    def bind_store(self, store: ShareStore) -> None:
        """Sign and accept share keys (``turn_key``) for the turns of ``store``, from now on.
        One signer serves one store: binding it to another (another id) is a StoreError, since
        the links it gave out would then open the other store's answers."""
        identity = store.identity()
        bound = self._store
        if bound is not None and bound.identity.store_id != identity.store_id:
            raise StoreError("this file-link signer already signs share links of another store")
        self._store = _BoundStore(identity, store.turn_stamp)

    def turn_key(self, turn_id: int) -> str | None:
        """An unguessable key for ``/turns/{key}``, the full-source-list page of one turn of
        the bound store (``bind_store``); None while no store is bound, or when the store has
        no turn ``turn_id`` (no link at all rather than one that could open another answer).

        Turn ids are sequential; signing them keeps other people's answers from being read by
        counting (the page also shows only answers whose every source is public). The store's
        id is signed too, so turn 2 of another store, or of the store a reset replaced, has
        another key; and so is the turn's stamp (``Store.turn_stamp``), so a turn that gets
        the id again after the store is restored from an older backup has another key. A link
        never opens an answer it was not made for.
        """
        store = self._store
        stamp = None if store is None else store.stamp(turn_id)
        if store is None or stamp is None:
            return None
        return f"{turn_id}-{self._sign(f'turn:{store.identity.store_id}:{turn_id}:{stamp}')}"

    def turn_id_for(self, key: str) -> int | None:
        """The turn id of a valid ``turn_key`` of the bound store, else None (also for a key
        made for another turn that had the id before the store was restored).

        A key of an older form opens only a turn the store already had when it was upgraded:
        one signed for the store alone (no stamp), a turn up to
        ``StoreIdentity.unstamped_share_upto``; one signed for no store, a turn up to
        ``legacy_share_upto``. Links shared before an upgrade keep working, and none can open
        a turn made after it.
        """
        bound = self._store
        number, _, signature = key.partition("-")
        # ASCII only: str.isdigit() takes "²", which int() refuses (a 500), and compare_digest
        # raises TypeError on a non-ASCII str
        if bound is None or not (number.isascii() and number.isdigit()) or len(number) > 18:
            return None
        # only a signature of the form _sign writes (24 bytes, URL-safe base64) reaches the
        # store read for the turn's stamp: garbage costs no query
        if _SIGNATURE.fullmatch(signature) is None:
            return None
        turn_id = int(number)
        if str(turn_id) != number:  # "001-…": one page has one address, the one it was given
            return None
        stamp, store = bound.stamp(turn_id), bound.identity
        if stamp is None:  # no such turn
            return None
        signed = f"turn:{store.store_id}:{turn_id}"
        if hmac.compare_digest(signature, self._sign(f"{signed}:{stamp}")):
            return turn_id
        if turn_id <= store.unstamped_share_upto and hmac.compare_digest(
            signature, self._sign(signed)
        ):
            return turn_id
        if turn_id <= store.legacy_share_upto and hmac.compare_digest(
            signature, self._sign(f"turn:{turn_id}")
        ):
            return turn_id
        return None

    def verify(self, token: str) -> FileGrant:
        """The grant of a valid token; :class:`FileTokenError` for anything else."""
        body, dot, signature = token.partition(".")
        if not dot or len(token) > 4096 or not body.isascii() or not signature.isascii():
            raise FileTokenError()
        if not hmac.compare_digest(self._sign(body), signature):
            raise FileTokenError()
        try:
            claims = json.loads(_unb64(body))
        except (ValueError, binascii.Error):
            raise FileTokenError() from None
        grant = self._grant(claims)
        if grant is None:
            raise FileTokenError()
        return grant

    def _grant(self, claims: Any) -> FileGrant | None:
        if not isinstance(claims, dict) or claims.get("v") != _TOKEN_VERSION:
            return None
        expires, relative, root_key = claims.get("e"), claims.get("p"), claims.get("r")
        audience = claims.get("a")
        if not isinstance(expires, int) or expires < self._clock():
            return None
        if not isinstance(relative, str) or not isinstance(root_key, str):
            return None
        if not isinstance(audience, list) or not all(isinstance(a, str) for a in audience):
            return None
        root = self._roots.get(root_key)
        if root is None:
            return None
        try:
            real = (root / relative).resolve()
        except (OSError, RuntimeError, ValueError):
            return None
        # Checked again at download time: a symlink swapped in after issue must not escape.
        if not real.is_relative_to(root) or not real.is_file():
            return None
        filename = claims.get("n") if isinstance(claims.get("n"), str) else real.name
        media_type = claims.get("m") if isinstance(claims.get("m"), str) else None
        guessed = mimetypes.guess_type(real.name)[0]
        return FileGrant(
            path=real,
            filename=str(filename),
            media_type=str(media_type or guessed or "application/octet-stream"),
            audience=frozenset(audience),
            expires_at=expires,
        )


def load_file_secret(configured: str, store_path: str) -> bytes:
    """The signing secret: configured, else ``$CITECAST_FILE_SECRET``, else a stored random one.

    The generated secret lives in ``<store directory>/file_secret`` with mode 0600, so links
    stay valid across restarts without anyone having to configure anything.
    """
    value = configured or os.environ.get(SECRET_ENV, "")
    if value:
        secret = value.encode("utf-8")
        if len(secret) < MIN_SECRET_BYTES:
            raise ConfigError(
                f"web.file_secret: must be at least {MIN_SECRET_BYTES} characters long"
            )
        return secret
    directory = Path(store_path).parent if store_path != ":memory:" else Path(".citecast")
    target = directory / SECRET_FILENAME
    try:
        # the folder also holds the store and the index: private when citecast makes it
        make_private_folder(directory)
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            return _read_secret_file(target)
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(secrets.token_urlsafe(48))
        log.info("generated a file-link secret in %s", target)
        return _read_secret_file(target)
    except OSError as exc:
        raise ConfigError(f"web.file_secret: cannot create {target}: {exc}") from None


def _read_secret_file(target: Path) -> bytes:
    if target.stat().st_mode & 0o077:
        log.warning("%s was readable by others; restricting it to its owner", target)
        target.chmod(0o600)
    secret = target.read_text(encoding="ascii").strip().encode("ascii")
    if len(secret) < MIN_SECRET_BYTES:
        raise ConfigError(f"{target}: the stored file-link secret is too short; delete the file")
    return secret
