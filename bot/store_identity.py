"""The store's identity: a random id made once with the store and kept in it (see ``bot.store``).

Share links (``/turns/{key}``, ``bot.filetokens.FileSigner.turn_key``) are signed for one store,
so turn 2 of one store never opens turn 2 of another that shares the file-link secret, and a
link from before a store reset (a new store file, the same secret) opens nothing in the new one.
The id lives in the store's ``state`` table, which pruning never touches, so it lasts exactly as
long as the store's turns do.

A store made by a version without an id gets one when it is first opened (an upgrade). The
share links it gave out before then were signed for no store; ``legacy_share_upto`` is its
highest turn id at that moment, and only links to turns up to it keep the old form (they can
only have come from this store or from one it replaced before the upgrade, which the old form
cannot tell apart). A store created with an id has ``legacy_share_upto`` 0: no old links.
"""

from __future__ import annotations

import secrets
import sqlite3
from dataclasses import dataclass

# A scope of the ``state`` table no connector uses (theirs are their channel's names).
_SCOPE = "citecast.store"
_ID_KEY = "id"
_LEGACY_KEY = "legacy_share_upto"


@dataclass(frozen=True)
class StoreIdentity:
    """Who a store is: ``store_id`` (random, 32 hex digits) and ``legacy_share_upto`` (the
    highest turn id whose share link may still be of the form signed for no store)."""

    store_id: str
    legacy_share_upto: int = 0


def read_identity(db: sqlite3.Connection) -> StoreIdentity | None:
    """The identity kept in the store, or None when it has none yet (an older store)."""
    rows = dict(
        db.execute(
            "SELECT key, value FROM state WHERE scope = ? AND key IN (?, ?)",
            (_SCOPE, _ID_KEY, _LEGACY_KEY),
        ).fetchall()
    )
    store_id = rows.get(_ID_KEY)
    if not isinstance(store_id, str) or not store_id:
        return None
    legacy = str(rows.get(_LEGACY_KEY, "0"))
    return StoreIdentity(store_id, int(legacy) if legacy.isdigit() else 0)


def ensure_identity(db: sqlite3.Connection, now: float) -> StoreIdentity:
    """The store's identity, made and kept now when it has none. Call inside a write
    transaction: two processes opening one older store at once then agree on one id."""
    found = read_identity(db)
    if found is not None:
        return found
    # AUTOINCREMENT: sqlite_sequence holds the highest turn id ever given, deleted or not
    row = db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'turns'").fetchone()
    made = StoreIdentity(secrets.token_hex(16), int(row[0]) if row and row[0] else 0)
    db.executemany(
        "INSERT OR IGNORE INTO state (scope, key, value, updated_at) VALUES (?, ?, ?, ?)",
        [
            (_SCOPE, _ID_KEY, made.store_id, now),
            (_SCOPE, _LEGACY_KEY, str(made.legacy_share_upto), now),
        ],
    )
    return read_identity(db) or made
