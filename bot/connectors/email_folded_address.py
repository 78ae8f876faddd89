"""The mailbox an email address names, as every sender and recipient comparison reads it.

``Help+Billing@Docs.Example.COM`` and ``help@docs.example.com`` reach one mailbox: a ``+tag``
is the mailbox owner's own label (sub-addressing, RFC 5233), and citecast never tells mailboxes
apart by case (nearly no server does; the reply still goes to the address as written). Every
rule that decides who someone is folds an address so before it compares: the bot's own address
(loop guard, ``Cc:``), system mailboxes, ``audience_by_address`` and the per-sender rate limit.
Otherwise ``contractor+x@…`` would slip out of a narrowing ``audience_by_address`` entry into
its domain's audience, and the bot would answer its own ``help+x@…``.
"""

from __future__ import annotations


def folded_address(address: str) -> str:
    """``address`` lower-cased, without angle brackets or a ``+tag`` in its local part;
    ``""`` when it has no ``@``."""
    local, at, domain = address.strip().strip("<>").lower().rpartition("@")
    if not at:
        return ""
    return f"{local.split('+', 1)[0]}@{domain}"
