"""The ``filename`` an upload to Discourse is sent under, so the forum keeps the name listed.

Rack, which reads Discourse's multipart bodies, percent-decodes a file's name when every ``%`` in
it starts a valid escape (rack/rack#1772): a file sent as ``100%25.pdf`` would be stored as
``100%.pdf`` and one sent as ``a%0Ab.pdf`` with a line break, while the post's entry names it
as written. Each ``%`` is therefore sent as ``%25``: then every ``%`` the forum reads starts a
valid escape (ours, or httpx's ``%22`` for a quote and ``%0A``-style escapes for control
characters), Rack always decodes, and the stored name is the one the entry lists.
"""

from __future__ import annotations


def sent_file_name(name: str) -> str:
    """``name`` as an upload's multipart ``filename`` carries it: each ``%`` written ``%25``, so
    the name Rack decodes is ``name`` itself (``100%25.pdf`` stays ``100%25.pdf``)."""
    return name.replace("%", "%25")
