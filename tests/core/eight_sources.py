"""The registry the resolver's example tests share: eight sources of every kind."""

from __future__ import annotations

from bot.models import Source
from bot.registry import SourceRegistry

SECRET = b"examples-secret!"


def eight_sources() -> SourceRegistry:
    """Sources 1..8; 2 has id "123"; 5 is a record; 1 has a public URL."""
    registry = SourceRegistry(secret=SECRET)
    registry.register_all(
        [
            Source("s1", title="Install guide", url="https://docs.test/1"),
            Source("123", title="Release notes"),
            Source("s3", title="Manual", url="https://docs.test/manual.pdf", page=12),
            Source("s4", title="FAQ"),
            Source(
                "s5", kind="record", label="Widget Pro", columns={"name": "Widget", "price": "5"}
            ),
            Source("s6"),
            Source("s7"),
            Source("s8"),
        ]
    )
    return registry


RECORD_KEY = eight_sources().key_for(5)
