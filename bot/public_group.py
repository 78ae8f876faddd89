"""``public``, the group everyone is in, and why ``Public`` or ``PUBLIC`` is refused as a name.

Older releases matched a group as written, so ``PUBLIC`` was a group of that name and an
operator may have used it for a private one. Reading it as everyone would publish those files
(and their ``index.records`` tables) on upgrade without a word; reading it as a group would hide
a page its author meant for everyone. Neither is safe to guess, so every place a group is
written (a document's front matter or meta tag, ``--audience``, ``index.audience_rules``,
``index.records[].audience`` and each channel's viewer audiences) refuses it with one reason.
"""

from __future__ import annotations

PUBLIC = "public"


def public_in_another_case(name: str, label: str = "audience") -> str | None:
    """Why the group ``name`` (written as ``label``) is refused, or None: ``public`` in any
    case but lower case (``Public``, ``PUBLIC``, `` Public ``)."""
    written = name.strip()
    if written == PUBLIC or written.casefold() != PUBLIC:
        return None
    return (
        f"{label} {written!r}: write {PUBLIC} in lower case for everyone, or choose a group "
        f"name that is not {PUBLIC} in another case"
    )
