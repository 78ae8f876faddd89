"""The file types the forum refused to take, remembered while the connector runs.

Discourse refuses an upload whose extension is not in its site setting *authorized extensions*
with 422 "Sorry, the file you are trying to upload is not authorized (authorized extensions:
jpg, jpeg, png, …)." (worded in the forum's language; the default list holds images only, so a
``.md`` or ``.html`` source is refused). The forum answers the same for every file of that type
until its admin changes the setting, so after the first refusal such files are not sent again:
they are shown by name (or as a signed download link), and one warning says how to change it.
Other refusals (too big, a proxy's limit, an outage) are about one file, and are not kept here.
"""

from __future__ import annotations

import logging
import re

from bot.connectors.discourse_errors import DiscourseAPIError

log = logging.getLogger(__name__)

# "(authorized extensions: jpg, jpeg, png)" in any language: a parenthesis whose part after
# the last colon is a list of extensions (ASCII or full-width punctuation)
_PARENTHESIS = re.compile(r"[(（]([^()（）]*)[)）]")
_SEPARATORS = re.compile(r"[,，、]")
_EXTENSION = re.compile(r"\*|[a-z0-9][a-z0-9_+-]{0,15}")
# "(maximum size is 4 MB)" worded with a colon: one size, not a list of extensions
_SIZE = re.compile(r"\d+(?:[.,]\d+)?\s*[a-z]{0,3}")


def extension_of(filename: str) -> str:
    """The file's extension, lower case and without the dot ("" when it has none)."""
    return filename.rsplit(".", 1)[1].lower() if "." in filename else ""


def refused_by_type(exc: DiscourseAPIError, extension: str) -> bool:
    """Whether the forum refused an upload because of its type (``extension``): a 422 whose
    message lists the authorized extensions without it (in any language), or, when no list
    can be read from it, the English "not authorized"."""
    if exc.status != 422 or not extension:
        return False
    for error in exc.errors:
        listed = _authorized(error)
        if listed is not None:
            return extension not in listed and "*" not in listed
    return exc.mentions("not authorized")


def _authorized(message: str) -> set[str] | None:
    """The extensions a refusal lists as authorized, or None when it lists none."""
    for group in _PARENTHESIS.findall(message):
        _, colon, tail = group.replace("：", ":").rpartition(":")
        if not colon:
            continue
        tokens = [t.strip().lower().lstrip(".") for t in _SEPARATORS.split(tail)]
        tokens = [t for t in tokens if t]
        if not tokens or not all(_EXTENSION.fullmatch(t) for t in tokens):
            continue
        if len(tokens) == 1 and _SIZE.fullmatch(tokens[0]):
            continue
        return set(tokens)
    return None


class RefusedTypes:
    """The extensions the forum refused as a type, as learned by this process (one per running
    connector: a restart tries again, in case the site setting was changed)."""

    def __init__(self) -> None:
        self._refused: set[str] = set()
        # files the forum refused on their own (too big): warned once each, then INFO
        self._files_warned: set[str] = set()

    def first_file_refusal(self, path: str) -> bool:
        """True the first time this process sees the forum refuse the file at ``path`` for
        itself (too big, not its type): that refusal is a warning an admin should notice, and
        the file's later refusals (it is tried again for each answer) are INFO."""
        if path in self._files_warned:
            return False
        self._files_warned.add(path)
        return True

    def refused(self, filename: str) -> bool:
        """Whether a file of this name's type was refused before (so is not sent again)."""
        extension = extension_of(filename)
        return bool(extension) and extension in self._refused

    def learn(self, filename: str, exc: DiscourseAPIError, *, linked: bool) -> bool:
        """Keep the type of ``filename`` when ``exc`` refused it as a type (True), logging the
        first refusal of each type once as a warning with what to change; ``linked``: such
        files get a signed download link (``web.public_base_url`` is set)."""
        extension = extension_of(filename)
        if not refused_by_type(exc, extension):
            return False
        if extension in self._refused:
            return True
        self._refused.add(extension)
        shown = "linked with a signed download link" if linked else "shown by name"
        hint = "" if linked else "; set web.public_base_url to give them signed download links"
        log.warning(
            "discourse: the forum refuses .%s uploads (%s); until citecast restarts, .%s files"
            ' are not sent again and are %s. Add %s to the site setting "authorized extensions"'
            " to attach them, or list the types the forum takes in"
            " discourse.allowed_upload_extensions (e.g. [pdf, png]) so no other type is tried%s",
            extension,
            "; ".join(exc.errors) or exc,
            extension,
            shown,
            extension,
            hint,
        )
        return True
