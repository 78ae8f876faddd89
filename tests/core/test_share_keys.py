"""Share keys (``FileSigner.turn_key``, the ``/turns/{key}`` links) are signed for one store: the
same turn id of another store, or of the store a reset replaced, has another key, and a key of
the older form (signed for no store) opens only a turn the store had when it was upgraded."""

from __future__ import annotations

import base64
import hashlib
import hmac

import pytest

from bot.errors import StoreError
from bot.filetokens import FileSigner
from bot.store_identity import StoreIdentity

SECRET = b"one-secret-for-every-store-0123456789"


def signer_for(identity: StoreIdentity | None) -> FileSigner:
    signer = FileSigner(SECRET, "https://help.example.com", 3600)
    if identity is not None:
        signer.bind_store(identity)
    return signer


def old_form_key(turn_id: int) -> str:
    """A share key as releases before store ids made it: the turn id signed for no store."""
    digest = hmac.new(SECRET, f"turn:{turn_id}".encode(), hashlib.sha256).digest()[:24]
    return f"{turn_id}-" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def test_two_stores_with_one_secret_give_turn_2_different_keys() -> None:
    first, second = signer_for(StoreIdentity("a" * 32)), signer_for(StoreIdentity("b" * 32))
    key_one, key_two = first.turn_key(2), second.turn_key(2)
    assert key_one is not None and key_two is not None
    assert key_one != key_two
    assert key_one.startswith("2-") and first.turn_id_for(key_one) == 2
    assert second.turn_id_for(key_one) is None
    assert first.turn_id_for(key_two) is None


def test_a_key_with_leading_zeros_opens_nothing() -> None:
    # found by a security QA pass: "01-<sig>" and "001-<sig>" opened the page of "1-<sig>", so
    # one shared answer had any number of addresses
    signer = signer_for(StoreIdentity("a" * 32, legacy_share_upto=5))
    key = signer.turn_key(1)
    assert key is not None and signer.turn_id_for(key) == 1
    assert signer.turn_id_for("0" + key) is None
    assert signer.turn_id_for("00" + key) is None
    assert signer.turn_id_for("0" + old_form_key(1)) is None


def test_a_key_from_before_a_reset_opens_nothing_in_the_new_store() -> None:
    before = signer_for(StoreIdentity("a" * 32))
    shared = before.turn_key(1)
    assert shared is not None
    after = signer_for(StoreIdentity("c" * 32))  # a new store file, the same secret
    assert after.turn_id_for(shared) is None
    assert after.turn_id_for(old_form_key(1)) is None  # a new store honours no old links


def test_old_form_keys_open_only_the_turns_an_upgraded_store_had() -> None:
    upgraded = signer_for(StoreIdentity("d" * 32, legacy_share_upto=5))
    assert upgraded.turn_id_for(old_form_key(1)) == 1
    assert upgraded.turn_id_for(old_form_key(5)) == 5
    assert upgraded.turn_id_for(old_form_key(6)) is None  # a turn made after the upgrade
    assert upgraded.turn_key(5) != old_form_key(5)  # what it gives out now is of the new form


def test_a_signer_bound_to_no_store_gives_and_takes_no_share_keys() -> None:
    unbound = signer_for(None)
    assert unbound.turn_key(1) is None
    assert unbound.turn_id_for(old_form_key(1)) is None


def test_one_signer_serves_one_store() -> None:
    signer = signer_for(StoreIdentity("a" * 32))
    signer.bind_store(StoreIdentity("a" * 32))  # the same store again: nothing changes
    with pytest.raises(StoreError, match="another store"):
        signer.bind_store(StoreIdentity("b" * 32))
    key = signer.turn_key(3)
    assert key is not None and signer.turn_id_for(key) == 3
