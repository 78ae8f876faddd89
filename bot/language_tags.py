"""The ``assistant.language`` setting: a BCP 47 language tag, or nothing.

Only the tag's shape is checked (RFC 5646's letters, digits and hyphens in subtags of 1–8
characters, a primary language of 2–3 letters or ``x``/``i``), not the registry: a tag a
screen reader does not know is read in its default voice, and every value that passes is safe
inside an HTML attribute. A tag written with an underscore (``pt_BR``, the POSIX locale form)
is refused with the hyphenated form as a hint rather than corrected, so the file says what is
used.
"""

from __future__ import annotations

import re

_TAG = re.compile(r"(?:[A-Za-z]{2,3}|[xXiI])(?:-[A-Za-z0-9]{1,8})*")


def checked_language_tag(value: str) -> str:
    """``value`` stripped when it is a language tag or blank; else ValueError with the reason."""
    tag = value.strip()
    if not tag or _TAG.fullmatch(tag):
        return tag
    hint = ""
    hyphenated = tag.replace("_", "-")
    if hyphenated != tag and _TAG.fullmatch(hyphenated):
        hint = f" (did you mean {hyphenated}?)"
    raise ValueError(f"expected a language tag such as en, de or pt-BR, got {value!r}{hint}")
