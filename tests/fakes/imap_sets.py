"""The fake IMAP server's mailbox data: stored messages, message sets and SEARCH matching.

Plain functions over the message list, kept apart from the protocol handling in
``tests.fakes.imap_server``.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class StoredMessage:
    """One message in the fake mailbox."""

    uid: int
    raw: bytes
    flags: set[str] = field(default_factory=set)


def message_set(
    messages: list[StoredMessage], spec: bytes, uid_mode: bool
) -> list[tuple[int, StoredMessage]] | None:
    """``(sequence number, message)`` of a message set (``1,3:5``, ``4:*``); None when the
    set is malformed. ``uid_mode`` reads its numbers as UIDs (RFC 3501 §6.4.8)."""
    numbered = list(enumerate(messages, start=1))
    keys = [(m.uid if uid_mode else seq) for seq, m in numbered]
    top = max(keys, default=0)
    wanted: set[int] = set()
    for piece in spec.split(b","):
        bounds = piece.split(b":")
        try:
            values = [top if b == b"*" else int(b) for b in bounds]
        except ValueError:
            return None
        if len(values) == 1:
            wanted.add(values[0])
        elif len(values) == 2:
            low, high = sorted(values)
            wanted.update(range(low, high + 1))
        else:
            return None
    return [(seq, m) for (seq, m), key in zip(numbered, keys, strict=True) if key in wanted]


def search(messages: list[StoredMessage], args: list[bytes], uid_mode: bool) -> list[int] | None:
    """The UIDs (``uid_mode``) or sequence numbers matching every criterion (ALL, SEEN, UNSEEN,
    ``UID <set>``: RFC 3501's implicit AND); None when a criterion is not understood."""
    criteria = [a.upper() for a in args]
    wanted: set[int] | None = None
    flags: list[bytes] = []
    understood = bool(criteria)
    while criteria and understood:
        key = criteria.pop(0)
        spec = criteria.pop(0) if key == b"UID" and criteria else None
        chosen = None if spec is None else message_set(messages, spec, True)
        if chosen is not None:
            wanted = {m.uid for _, m in chosen}
        elif key in (b"ALL", b"SEEN", b"UNSEEN"):
            flags.append(key)
        else:
            understood = False
    if not understood:
        return None
    found = []
    for seq, message in enumerate(messages, start=1):
        seen = "\\Seen" in message.flags
        if (b"SEEN" in flags and not seen) or (b"UNSEEN" in flags and seen):
            continue
        if wanted is None or message.uid in wanted:
            found.append(message.uid if uid_mode else seq)
    return found
