"""One passage backing two claims with two different sentences: the case of
``Citation.occurrences`` that the grounding, renderer and browser tests share."""

from __future__ import annotations

from bot.models import Source

GUIDE = Source(
    id="install#1",
    title="Install guide",
    url="https://docs.example.org/install.html",
    text=(
        "Install citecast with pip install citecast. The index is a single SQLite file that "
        "lives next to the config. Chunks are about 800 characters long."
    ),
)
PIP = "Install citecast with pip install citecast."
SQLITE = "The index is a single SQLite file that lives next to the config."
TWO_CLAIMS = "Install with pip install citecast [^1]. The index is a single SQLite file [^1]."
INVENTED = "Every employee can read every file in the company drive without signing in"
