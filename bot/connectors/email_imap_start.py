"""Where IMAP polling starts in each mailbox, kept in the store (see ``email_imap``)."""

from __future__ import annotations

from bot.store import Store


class StartPoints:
    """The start point of every polled mailbox (``UIDVALIDITY`` and first UID to answer), kept
    in the store's state (scope ``SCOPE``, one key per mailbox) so it outlives restarts.

    Releases before the store had a state table kept it among the records of the bot's own
    messages, under the channel ``LEGACY_CHANNEL``: one found there is moved to the state the
    first time it is read, so upgrading never makes a watched mailbox look new (which would
    leave the mail that arrived meanwhile unanswered).
    """

    SCOPE = "email-imap-start"
    LEGACY_CHANNEL = "email-imap-start"

    def __init__(self, store: Store) -> None:
        self._store = store

    def get(self, mailbox: str) -> tuple[int, int] | None:
        """``(uidvalidity, first_uid)`` saved for ``mailbox``, or None (never watched)."""
        saved = self._store.state(self.SCOPE, mailbox)
        if saved is None:
            saved = self._store.conversation_of(self.LEGACY_CHANNEL, mailbox)
            if saved is not None:
                # saved first, forgotten second: a crash in between leaves a copy, never none
                self._store.set_state(self.SCOPE, mailbox, saved)
                self._store.forget_messages(self.LEGACY_CHANNEL, [mailbox])
        return _start_point(saved)

    def put(self, mailbox: str, validity: int, first_uid: int) -> None:
        """Save the start point of ``mailbox``."""
        self._store.set_state(self.SCOPE, mailbox, f"{validity} {first_uid}")


def _start_point(saved: str | None) -> tuple[int, int] | None:
    """A saved ``"<uidvalidity> <first uid>"`` as numbers; None when there is none, or it is
    not of that form."""
    fields = (saved or "").split()
    if len(fields) != 2 or not all(field.isdigit() for field in fields):
        return None
    return int(fields[0]), int(fields[1])
