"""Who may read a knowledge-base file *now*: the rule ``/files/`` serves by, and re-renders keep.

A ``/files/`` token names a file and the audience it was issued for, signed when an answer cited
the file. The file's audience is the index's, and it changes: ``audience: [board]`` added to its
front matter, an ``index.audience_rules`` glob over its folder, or the file dropped from the
index (deleted, or no longer readable: front matter that cannot be read may have named an
audience). The signature only says the link was ours, so the file is served only when
:func:`readable` says the token's audience may read it as the index stands now:

- a file the index holds is readable by the audiences its current entry allows
  (``Source.visible_to``, the rule every citation and every link on the viewer page follows);
- a file that lies inside a folder (or is a file) ingested into the index but is not in it now
  is readable by no one: the index dropped it, whatever is still on disk;
- a file outside everything ingested is served from ``web.file_roots`` alone, as configured:
  no index speaks for it, and its token's audience is all there is;
- an index that exists but cannot be read serves nothing of what it may hold (fail closed).

The index's audience is that of the bytes it read: ``/files/`` serves a file the index holds
only while it still holds them (:mod:`bot.knowledge.indexed_bytes`, checked by
:mod:`bot.connectors.web_files` after :func:`readable`), so a file edited in place to name a
narrower audience is not served on an old link before ``citecast ingest`` judges it. A
re-render keeps its citation (its stored passage is the text the index judged).

A stored citation also tells where its file came from
(:func:`bot.knowledge.passage_origin.found_in_index`): a passage the index found, of a file
outside every folder the index covers now, was dropped with its folder (``citecast ingest
--rebuild`` over fewer folders, or the index built again without it) and counts as dropped;
only a file an answerer cited from outside the index (``web.file_roots`` alone) keeps the
audience stored with it. (A token names only a path, so ``/files/`` still serves a dropped
folder that is also listed in ``web.file_roots``, as that setting says; its stored citations
count as dropped all the same.)

A stored answer re-rendered later (a conversation reload, the share page) keeps its citations,
but one whose file the viewer may no longer read gets no fresh link: :func:`as_now` shows it as
its title and "(no longer available)", without its quote or passage.

What a stored answer may still be used for follows the same rule (:func:`visible_now`): the
share page (``/turns/{key}``) shows no answer that cites or read a file made private or dropped
since, and such an answer is not given to the model as history again.

A record follows its table as configured now (:func:`table_allows`): a table given a narrower
``audience``, or removed from ``index.records``, hides its records as a file made private does.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from bot.connectors.web_viewer_links import FileIndex
from bot.filetokens import FileSigner
from bot.knowledge.passage_origin import found_in_index
from bot.models import Answer, Citation, Source

REMOVED_NOTE = "(no longer available)"


@dataclass(frozen=True)
class Readable:
    """A file a viewer may read now: ``source`` is its index entry (its current audience and
    title), None for a file served from ``web.file_roots`` alone."""

    path: Path
    source: Source | None


def readable(files: FileIndex, path: Path, audience: frozenset[str]) -> Readable | None:
    """The file at ``path`` (absolute, resolved) when ``audience`` may read it now, else None:
    it is not a file on disk, the index holds it for others only, or the index dropped it."""
    if not path.is_file():
        return None
    source = files.source_for(path)
    if source is not None:
        return Readable(path, source) if source.visible_to(audience) else None
    return None if files.governs(path) else Readable(path, None)


def why_unreadable(files: FileIndex, path: Path) -> str:
    """Why :func:`readable` refused ``path``, for the log (never for the viewer): ``"gone"``
    (not a file on disk now), ``"private"`` (the index holds it for other audiences) or
    ``"unindexed"`` (inside an ingested folder but not in the index: dropped from it since, or
    never indexed, as a file ingest skips)."""
    if not path.is_file():
        return "gone"
    return "private" if files.source_for(path) is not None else "unindexed"


def as_now(
    answer: Answer, files: FileIndex, signer: FileSigner | None, audience: frozenset[str]
) -> Answer:
    """``answer`` with each citation of a served file that ``audience`` may no longer read
    (made private, dropped from the index, deleted), of a knowledge-base file whose folder the
    index no longer covers, and of a record whose table it may no longer see
    (:func:`table_allows`), shown as removed (:func:`removed`).

    Otherwise only files the signer would link are looked at: a citation that never had a
    ``/files/`` link (no path, outside the served folders, no signer) is left as it was."""
    covered: dict[str, bool] = {}  # by path: inside a folder the index covers now
    verdicts: dict[str, bool] = {}  # by path: readable by ``audience`` now
    citations: list[Citation] = []
    for citation in answer.citations:
        source, path = citation.source, citation.source.path
        if source.kind == "record":
            gone = not table_allows(files, source, audience)
        elif not path:
            gone = False
        elif found_in_index(source) and not _once(covered, path, partial(_covered, files, path)):
            gone = True  # dropped with its folder, whether it was linked or not
        elif signer is not None and signer.token_for(source, audience) is not None:
            gone = not _once(verdicts, path, partial(_still_readable, files, path, audience))
        else:
            gone = False
        citations.append(removed(citation) if gone else citation)
    if all(new is old for new, old in zip(citations, answer.citations, strict=True)):
        return answer
    return dataclasses.replace(answer, citations=tuple(citations))


def removed(citation: Citation) -> Citation:
    """``citation`` of a file (or record) that can no longer be read: its title marked "(no
    longer available)", without a link (public, deep or signed), its quote, its passage, its
    record columns or action, or a file name beside the title (which would repeat a title
    that is the file's name), so every renderer shows it by name only."""
    source = citation.source
    gone = dataclasses.replace(
        source,
        title=f"{source.display_title} {REMOVED_NOTE}",
        url=None,
        path=None,
        text=None,
        filename=None,
        columns=None,
        action=None,
    )
    return dataclasses.replace(citation, source=gone, quote=None, deep_link=None)


def visible_now(files: FileIndex, audience: frozenset[str]) -> Callable[[Source], bool]:
    """The rule a stored answer's sources are checked by before it is shared or given to the
    model again: a source is visible to ``audience`` when it was when stored
    (``Source.visible_to``) and, for a knowledge-base file, is :func:`readable` by it now.

    A knowledge-base file is one with a ``path`` that the index governs (inside a folder
    ingested into it), or a passage the index found (``found_in_index``): made private since,
    dropped from the index (alone, or with its folder) or deleted, it is no longer visible. A
    record is visible while its table still allows ``audience`` (:func:`table_allows`). A
    file an answerer cited from outside everything ingested (``web.file_roots`` alone) and a
    web page keep their stored audience: nothing speaks for them now.
    Each file is looked up once per returned rule.
    """
    verdicts: dict[tuple[str, bool], bool] = {}

    def visible(source: Source) -> bool:
        if not source.visible_to(audience):
            return False
        if source.kind == "record":
            return table_allows(files, source, audience)
        if not source.path:
            return True
        key = (source.path, found_in_index(source))
        if key not in verdicts:
            verdicts[key] = _visible_file(files, source, audience)
        return verdicts[key]

    return visible


def table_allows(files: FileIndex, record: Source, audience: frozenset[str]) -> bool:
    """True while the table of ``record`` (its id is ``table/key``) is still configured and its
    ``audience`` now lets ``audience`` see it: a table made private, or removed, since the
    record was cited hides it as a file made private does."""
    groups = files.table_audience(record.id.partition("/")[0])
    return groups is not None and dataclasses.replace(record, audience=groups).visible_to(audience)


def _visible_file(files: FileIndex, source: Source, audience: frozenset[str]) -> bool:
    real = _resolved(source.path)
    if real is None:
        return False
    if files.governs(real):
        return readable(files, real, audience) is not None
    # outside every ingested folder: a passage the index found went with its folder; for a
    # file cited from web.file_roots alone the stored audience is all there is (checked)
    return not found_in_index(source)


def _still_readable(files: FileIndex, path: str, audience: frozenset[str]) -> bool:
    real = _resolved(path)
    return real is not None and readable(files, real, audience) is not None


def _covered(files: FileIndex, path: str) -> bool:
    """Whether ``path`` lies in a folder (or is a file) the index covers now."""
    real = _resolved(path)
    return real is not None and files.governs(real)


def _once(verdicts: dict[str, bool], path: str, judge: Callable[[], bool]) -> bool:
    """``judge()``, the verdict on ``path``, worked out once per path of one answer."""
    if path not in verdicts:
        verdicts[path] = judge()
    return verdicts[path]


def _resolved(path: str | None) -> Path | None:
    if not path:
        return None
    try:
        return Path(path).expanduser().resolve()
    except (OSError, RuntimeError, ValueError):
        return None
