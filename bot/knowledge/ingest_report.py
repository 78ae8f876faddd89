"""What one ingest run did: the report :func:`bot.knowledge.ingest.ingest` returns and the
``ingest`` command prints as its summary (split from :mod:`bot.knowledge.ingest`, which
re-exports it)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.knowledge.ingest_narrowed import Narrowed
from bot.knowledge.ingest_widened import Widened
from bot.knowledge.walk import Skipped


@dataclass
class IngestReport:
    """What one ingest run did (the summary the command prints)."""

    files: int = 0
    indexed: int = 0
    unchanged: int = 0
    # of ``indexed``: files unchanged or not, last read by another citecast's reader
    reread: int = 0
    removed: int = 0
    chunks: int = 0
    pages: int = 0
    bytes_read: int = 0
    ignored: int = 0
    # the ignored files by suffix, lower-cased ("" for none), so the summary can say which
    ignored_suffixes: dict[str, int] = field(default_factory=dict)
    skipped: list[Skipped] = field(default_factory=list)
    # folders left out (cannot be listed, a symlink leaving the root): their files are unknown
    folders_skipped: list[Skipped] = field(default_factory=list)
    # files indexed without some of their content (a PDF page pypdf could not read)
    warnings: list[Skipped] = field(default_factory=list)
    # files indexed whole, with something the user should fix (a URL that is not one)
    notes: list[Skipped] = field(default_factory=list)
    # globs of audience rules that matched no file of a run with a root outside the working
    # directory, where paths above the ingested folder were not tried (see audience_rules)
    unmatched_rules: list[str] = field(default_factory=list)
    # globs of audience rules that matched no file of a run with every root inside the working
    # directory or the config file's folder, nor give any other indexed file its audience
    unused_rules: list[str] = field(default_factory=list)
    # globs of index.url_templates that gave no file of the run nor any other indexed file its
    # URL (see file_urls): the files they were written for are cited without a link
    unused_url_templates: list[str] = field(default_factory=list)
    # bytes the index gave back after the run freed a large share of it (VACUUM; see compaction)
    compacted: int = 0
    # re-read files (last read by another citecast's reader) whose audience narrowed: until
    # this run they were shown to people the new audience leaves out (see ingest_narrowed)
    narrowed: list[Narrowed] = field(default_factory=list)
    # files new to the index with the same content as a restricted file this run removed,
    # under a wider audience: a private folder moved or renamed (see ingest_widened)
    widened: list[Widened] = field(default_factory=list)
    # folders remembered with an --audience that no longer exist, with those groups, when
    # the run made files new to the index public (``new_public``: their relpaths)
    gone_roots: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    new_public: list[str] = field(default_factory=list)
