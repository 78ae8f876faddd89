"""The store's identity: a random id made once with the store and kept in it (see ``bot.store``).

Share links (``/turns/{key}``, ``bot.filetokens.FileSigner.turn_key``) are signed for one store,
so turn 2 of one store never opens turn 2 of another that shares the file-link secret, and a
link from before a store reset (a new store file, the same secret) opens nothing in the new one.
The id lives in the store's ``state`` table, which pruning never touches, so it lasts exactly as
long as the store's turns do.

A restore from a backup keeps the id but hands out again the turn ids given since the backup,
so a key is also signed for its turn's stamp (:func:`turn_stamp`: when the turn was stored, and
in which conversation), which a later turn of the same id does not share. It is made of what
the store has always kept of each turn: no column is added, and every turn, old or new, has one.

A store made by a version without an id gets one when it is first opened (an upgrade). The
share links it gave out before then were signed for no store; ``legacy_share_upto`` is its
highest turn id at that moment, and only links to turns up to it keep the old form (they can
only have come from this store or from one it replaced before the upgrade, which the old form
cannot tell apart). Likewise ``unstamped_share_upto`` is its highest turn id when a version that
signs stamps first opened it: links signed for the store but not for a stamp open only turns up
to it. A store created with both has 0 for both: no old links.
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
from dataclasses import dataclass

# A scope of the ``state`` table no connector uses (theirs are their channel's names).
_SCOPE = "citecast.store"
_ID_KEY = "id"
_LEGACY_KEY = "legacy_share_upto"
_UNSTAMPED_KEY = "unstamped_share_upto"


@dataclass(frozen=True)
class StoreIdentity:
    """Who a store is: ``store_id`` (random, 32 hex digits), ``legacy_share_upto`` (the
    highest turn id whose share link may still be of the form signed for no store) and
    ``unstamped_share_upto`` (the highest whose link may be signed for the store alone, not
    for the turn's stamp)."""

    store_id: str
    legacy_share_upto: int = 0
    unstamped_share_upto: int = 0


def turn_stamp(conversation_id: str, created_at: float) -> str:
    """What tells a stored turn from any other that has or had its id: the time it was
    stored (exactly, as a hexadecimal float) and its conversation (a digest: ASCII whatever
    the id holds). A restored backup gives the ids of the turns made since it out again, to
    turns stored later."""
    conversation = hashlib.sha256(conversation_id.encode("utf-8")).hexdigest()[:32]
    return f"{float(created_at).hex()}:{conversation}"


def read_identity(db: sqlite3.Connection) -> StoreIdentity | None:
    """The identity kept in the store, or None when it has none yet, or was last opened to
    write by a version that did not keep ``unstamped_share_upto`` (an older store)."""
    rows = dict(
        db.execute(
            "SELECT key, value FROM state WHERE scope = ? AND key IN (?, ?, ?)",
            (_SCOPE, _ID_KEY, _LEGACY_KEY, _UNSTAMPED_KEY),
        ).fetchall()
    )
    store_id = rows.get(_ID_KEY)
    if not isinstance(store_id, str) or not store_id or _UNSTAMPED_KEY not in rows:
        return None
    return StoreIdentity(store_id, _count(rows.get(_LEGACY_KEY)), _count(rows[_UNSTAMPED_KEY]))


def _count(value: object) -> int:
    text = str(value if value is not None else "0")
    return int(text) if text.isascii() and text.isdigit() else 0


def ensure_identity(db: sqlite3.Connection, now: float) -> StoreIdentity:
    """The store's identity, made and kept now when it has none (or the part of it an older
    version did not keep). Call inside a write transaction: two processes opening one older
    store at once then agree on one id."""
    found = read_identity(db)
    if found is not None:
        return found
    # AUTOINCREMENT: sqlite_sequence holds the highest turn id ever given, deleted or not
    row = db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'turns'").fetchone()
    highest = int(row[0]) if row and row[0] else 0
    made = StoreIdentity(secrets.token_hex(16), highest, highest)
    # OR IGNORE: a store that has an id keeps it, and its legacy_share_upto with it
    db.executemany(
        "INSERT OR IGNORE INTO state (scope, key, value, updated_at) VALUES (?, ?, ?, ?)",
        [
            (_SCOPE, _ID_KEY, made.store_id, now),
            (_SCOPE, _LEGACY_KEY, str(made.legacy_share_upto), now),
            (_SCOPE, _UNSTAMPED_KEY, str(made.unstamped_share_upto), now),
        ],
    )
    return read_identity(db) or made
