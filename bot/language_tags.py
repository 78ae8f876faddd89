"""Language tags (BCP 47) for HTML ``lang``: the ``assistant.language`` setting, checked, and
a document's own declaration (``<html lang>``, front matter ``lang:``), read leniently.

Only a tag's shape is checked (RFC 5646's letters, digits and hyphens in subtags of 1–8
characters), not the registry: a tag a screen reader does not know is read in its default
voice, and every value that passes is safe inside an HTML attribute. The setting's tag written
with an underscore (``pt_BR``, the POSIX locale form) is refused with the hyphenated form as a
hint rather than corrected, so the file says what is used; a document's is taken as meant.
"""

from __future__ import annotations

import re

_TAG = re.compile(r"(?:[A-Za-z]{2,3}|[xXiI])(?:-[A-Za-z0-9]{1,8})*")
# as documents write them: a primary subtag up to 8 letters ("de", "pt-BR", "zh-Hant-TW")
_DECLARED_TAG = re.compile(r"[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*")
_MAX_DECLARED_CHARS = 35


def declared_language(value: object) -> str | None:
    """A document's declared language as a tag (``en_US`` read as ``en-US``), or None when it
    is not one (not a string, blank, too long or not shaped as a tag)."""
    if not isinstance(value, str):
        return None
    tag = value.strip().replace("_", "-")
    if len(tag) > _MAX_DECLARED_CHARS or not _DECLARED_TAG.fullmatch(tag):
        return None
    return tag


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
