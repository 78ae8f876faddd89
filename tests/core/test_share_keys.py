"""Share keys (``FileSigner.turn_key``, the ``/turns/{key}`` links) are signed for one store and
for the turn's stamp: the same turn id of another store, of the store a reset replaced, or of a
later turn that got the id again after a restore, has another key; a key of an older form
(signed for no store, or for the store alone) opens only a turn the store had when it was
upgraded."""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass, field

import pytest

from bot.errors import StoreError
from bot.filetokens import FileSigner
from bot.store_identity import StoreIdentity, turn_stamp

SECRET = b"one-secret-for-every-store-0123456789"


@dataclass
class Turns:
    """A store's identity and its turns' stamps (``bot.filetokens.ShareStore``)."""

    store: StoreIdentity
    stamps: dict[int, str] = field(default_factory=dict)

    def identity(self) -> StoreIdentity:
        return self.store

    def turn_stamp(self, turn_id: int) -> str | None:
        # every turn up to 99 is stored, at a time of its own, unless the test says otherwise
        return self.stamps.get(turn_id, turn_stamp("c", float(turn_id)) if turn_id < 100 else None)


def signer_for(store: Turns | None) -> FileSigner:
    signer = FileSigner(SECRET, "https://help.example.com", 3600)
    if store is not None:
        signer.bind_store(store)
    return signer


def signed(message: str) -> str:
    return (
        base64.urlsafe_b64encode(hmac.new(SECRET, message.encode(), hashlib.sha256).digest()[:24])
        .decode()
        .rstrip("=")
    )


def old_form_key(turn_id: int) -> str:
    """A share key as releases before store ids made it: the turn id signed for no store."""
    return f"{turn_id}-{signed(f'turn:{turn_id}')}"


def unstamped_key(store_id: str, turn_id: int) -> str:
    """A share key as releases before stamps made it: the turn id signed for the store only."""
    return f"{turn_id}-{signed(f'turn:{store_id}:{turn_id}')}"


def test_two_stores_with_one_secret_give_turn_2_different_keys() -> None:
    first = signer_for(Turns(StoreIdentity("a" * 32)))
    second = signer_for(Turns(StoreIdentity("b" * 32)))
    key_one, key_two = first.turn_key(2), second.turn_key(2)
    assert key_one is not None and key_two is not None
    assert key_one != key_two
    assert key_one.startswith("2-") and first.turn_id_for(key_one) == 2
    assert second.turn_id_for(key_one) is None
    assert first.turn_id_for(key_two) is None


def test_a_key_with_leading_zeros_opens_nothing() -> None:
    # found by a security QA pass: "01-<sig>" and "001-<sig>" opened the page of "1-<sig>", so
    # one shared answer had any number of addresses
    signer = signer_for(Turns(StoreIdentity("a" * 32, legacy_share_upto=5)))
    key = signer.turn_key(1)
    assert key is not None and signer.turn_id_for(key) == 1
    assert signer.turn_id_for("0" + key) is None
    assert signer.turn_id_for("00" + key) is None
    assert signer.turn_id_for("0" + old_form_key(1)) is None


def test_a_key_from_before_a_reset_opens_nothing_in_the_new_store() -> None:
    before = signer_for(Turns(StoreIdentity("a" * 32)))
    shared = before.turn_key(1)
    assert shared is not None
    after = signer_for(Turns(StoreIdentity("c" * 32)))  # a new store file, the same secret
    assert after.turn_id_for(shared) is None
    assert after.turn_id_for(old_form_key(1)) is None  # a new store honours no old links


def test_a_key_opens_only_the_turn_it_was_made_for_not_a_later_one_given_its_id() -> None:
    # a restore from a backup keeps the store's id and gives turn 7 again, to a later answer
    before = Turns(StoreIdentity("a" * 32), {7: turn_stamp("c1", 1000.5)})
    shared = signer_for(before).turn_key(7)
    assert shared is not None and signer_for(before).turn_id_for(shared) == 7
    restored = Turns(StoreIdentity("a" * 32), {7: turn_stamp("c2", 2000.25)})
    assert signer_for(restored).turn_id_for(shared) is None
    assert signer_for(restored).turn_key(7) != shared
    # the same conversation continued after the restore: the time still tells them apart
    same_conversation = Turns(StoreIdentity("a" * 32), {7: turn_stamp("c1", 1000.5000001)})
    assert signer_for(same_conversation).turn_id_for(shared) is None


def test_no_key_for_a_turn_the_store_does_not_have() -> None:
    signer = signer_for(Turns(StoreIdentity("a" * 32, 5, 5)))
    assert signer.turn_key(100) is None
    assert signer.turn_id_for(old_form_key(100)) is None


def test_old_form_keys_open_only_the_turns_an_upgraded_store_had() -> None:
    upgraded = signer_for(Turns(StoreIdentity("d" * 32, legacy_share_upto=5)))
    assert upgraded.turn_id_for(old_form_key(1)) == 1
    assert upgraded.turn_id_for(old_form_key(5)) == 5
    assert upgraded.turn_id_for(old_form_key(6)) is None  # a turn made after the upgrade
    assert upgraded.turn_key(5) != old_form_key(5)  # what it gives out now is of the new form


def test_unstamped_keys_open_only_the_turns_the_store_had_when_stamps_came() -> None:
    store_id = "e" * 32
    upgraded = signer_for(Turns(StoreIdentity(store_id, 2, unstamped_share_upto=5)))
    assert upgraded.turn_id_for(unstamped_key(store_id, 3)) == 3
    assert upgraded.turn_id_for(unstamped_key(store_id, 5)) == 5
    assert upgraded.turn_id_for(unstamped_key(store_id, 6)) is None  # made after the upgrade
    assert upgraded.turn_id_for(unstamped_key("f" * 32, 3)) is None  # another store's
    assert upgraded.turn_key(5) != unstamped_key(store_id, 5)  # it gives out stamped ones
    assert upgraded.turn_id_for(old_form_key(3)) is None  # above legacy_share_upto
    fresh = signer_for(Turns(StoreIdentity(store_id)))  # a store made with stamps: none
    assert fresh.turn_id_for(unstamped_key(store_id, 1)) is None


def test_a_signer_bound_to_no_store_gives_and_takes_no_share_keys() -> None:
    unbound = signer_for(None)
    assert unbound.turn_key(1) is None
    assert unbound.turn_id_for(old_form_key(1)) is None


def test_one_signer_serves_one_store() -> None:
    signer = signer_for(Turns(StoreIdentity("a" * 32)))
    signer.bind_store(Turns(StoreIdentity("a" * 32)))  # the same store again: nothing changes
    with pytest.raises(StoreError, match="another store"):
        signer.bind_store(Turns(StoreIdentity("b" * 32)))
    key = signer.turn_key(3)
    assert key is not None and signer.turn_id_for(key) == 3


@dataclass
class CountedTurns(Turns):
    """Turns that count the stamp reads a key check makes."""

    reads: list[int] = field(default_factory=list)

    def turn_stamp(self, turn_id: int) -> str | None:
        self.reads.append(turn_id)
        return super().turn_stamp(turn_id)


@pytest.mark.parametrize(
    "key", ["7-x", "7-" + "A" * 31, "7-" + "A" * 33, "7-" + "A" * 31 + "=", "7-" + "é" * 32]
)
def test_a_key_whose_signature_has_no_signature_s_form_reads_nothing_of_the_store(
    key: str,
) -> None:
    store = CountedTurns(StoreIdentity("a" * 32))
    signer = signer_for(store)
    assert signer.turn_id_for(key) is None
    assert store.reads == []
    assert signer.turn_id_for(signer.turn_key(7) or "") == 7  # a real key reads its stamp
    assert store.reads == [7, 7]
