"""Streaming ingestion: walk the given paths, read each file once, write its chunks in batches.

Memory stays flat with corpus size: folders are walked lazily (twice: once to count for the
progress bar, once to ingest), one file is in memory at a time, and rows are committed every
``BATCH_FILES`` files. A file whose content and settings are unchanged (same fingerprint) is
skipped; a changed one has its chunks replaced; files that vanished from an ingested folder, or
that this run could not read, are removed, and so is every indexed file, ingested alone or in a
folder, whose path no longer exists. Unreadable, encrypted or empty files, and files larger
than ``index.max_file_bytes`` (never read), are listed with the reason and never stop a run; so
is a symlink whose target lies outside the ingested folder, which is never read. A run that
leaves a quarter of the index free (removed or replaced files) compacts it with VACUUM
(:mod:`bot.knowledge.compaction`), so the file shrinks when a large file leaves it.

Source ids are ``relpath#chunk``: the file's path from the ingested root's parent, with more
parent folders when another indexed file already has it (see ``IndexWriter.relpath_for``).

A file's public URL: front-matter ``url:`` (HTML: canonical link), else the first matching
``index.url_templates`` glob, matched against the same paths of the file as audience rules
(:mod:`bot.knowledge.file_urls`), else none (renderers then attach the file or sign a download
link).
A relative ``url:`` (Hugo's ``url = "/docs/setup/"``, ``<link rel="canonical" href="setup.html">``)
is resolved against the template's URL, as a browser resolves it against the page's address;
one that still is no absolute http(s) URL is noted in the summary and the template's URL kept.

Audience of a file, most specific first: front matter ``audience:`` (or the HTML meta tag), the
first matching ``index.audience_rules`` glob, ``--audience``, else what an earlier run's
``--audience`` gave it (:mod:`bot.knowledge.ingest_audience`), else ``["public"]``. Rules are
tried, in order, against the file's path inside each folder ever ingested into the index that
holds it (and its path inside this run's root): ``internal/*`` written for ``citecast ingest
priv`` still matches ``priv/internal/bonus.md`` when ``priv/internal`` or the file alone is
ingested later, so re-ingesting part of a folder never drops the audience the folder's rules
gave. When no rule matches that path, the file's paths inside every other folder holding it,
from its own folder up to the working directory or the config file's folder (``above``), are
tried too, and can only narrow its audience, so ingesting the private folder itself first
(``citecast ingest priv/internal``), or a folder above the one the rules were written for
(``citecast ingest .``), keeps it private (see :mod:`bot.knowledge.audience_rules`). An audience
written empty is refused (:func:`document_audience`), never taken as public: a front-matter
one skips the file with the reason.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from bot.config import IndexSettings
from bot.errors import KnowledgeIndexError
from bot.knowledge.audience import document_audience
from bot.knowledge.audience_rules import RunRules, narrower, rule_tops
from bot.knowledge.chunking import Chunk, chunk_blocks
from bot.knowledge.compaction import compact
from bot.knowledge.document import Unreadable
from bot.knowledge.file_bytes import read_within
from bot.knowledge.file_urls import RunTemplates, page_url
from bot.knowledge.ingest_audience import KeptAudiences, read_kept, remember
from bot.knowledge.ingest_globs import warn_of_globs
from bot.knowledge.ingest_narrowed import narrowed_since
from bot.knowledge.ingest_report import IngestReport as IngestReport
from bot.knowledge.pdf_reader import PageCallback
from bot.knowledge.readers import is_supported, read_document
from bot.knowledge.schema import SCHEMA_VERSION
from bot.knowledge.walk import BAD_NAME as BAD_NAME
from bot.knowledge.walk import BROKEN_LINK as BROKEN_LINK
from bot.knowledge.walk import NOT_REGULAR as NOT_REGULAR
from bot.knowledge.walk import OUTSIDE_ROOT as OUTSIDE_ROOT
from bot.knowledge.walk import Entry, Visited, shown, utf8_name, walk
from bot.knowledge.walk import Skipped as Skipped
from bot.knowledge.walk import count_files as count_files
from bot.knowledge.writer import IndexWriter, indexed_paths, unwritable
from bot.private_files import readable_by_others

BATCH_FILES = 200
# Part of every fingerprint: bumping it makes the next run re-read every file. "2": front
# matter that is not valid YAML now skips the file, where "1" indexed it as public text.
# "3": Markdown HTML comments and thematic breaks and HTML role="navigation" furniture are no
# longer indexed (already indexed, they must not stay searchable until their file changes);
# an HTML table row is one passage; section names keep the underscores of `max_tokens`; a
# PDF titled "Microsoft Word - x.docx" takes its file name. "4": Hugo's TOML front matter
# (``+++``) names the audience, where "3" indexed it as public text, and so does Hugo's
# ``params.audience`` in either kind of front matter; ``<p hidden>`` (and other
# hidden elements whose end tag may be left out) is not text; a relative page URL is resolved.
# "5": HTML and plain-text files read front matter too (a Jekyll page's ``audience: [hr]``
# was indexed as public text). "6": Markdown raw HTML and JSX tags, footnote marks, link
# targets and reference definitions and admonition markers (``!!! note``, ``:::tip``) are not
# text (a link is its text), and a long table is cut between rows; a PDF word hyphenated at a
# line break is one word and its ligatures (ﬁ) are letters, so that "configuration" finds it;
# a form feed in a text file ends a paragraph; an HTML footnote mark ("[1]") is not text.
# "7": a Markdown tag written over several lines (``<img`` / ``  src="a.png">``) and a JSX
# attribute in braces (``values={[…]}``) are not text either (".md" chunks held them).
# "8": each later chunk of a long pipe table opens with the table's header and delimiter lines
# again (a row cut off from them was quoted as bare cells, "retries; 5; …", without its column
# names). "9": a Confluence HTML export's breadcrumbs, page metadata and footer, a site's
# banner (a <header> outside the content) and sidebars (an <aside> outside it) are not text;
# a PDF word hyphenated across a page break is one word, on the page it starts on; inline MDX
# ``{expressions}`` are not text, and an MDX line that opens with one keeps the text after it.
# "10": a backslash-escaped backtick opens no Markdown code span (``\` {a} `{b}` `` lost the
# code span's text and kept the expression); an HTML hidden element left unclosed ends with
# the element around it (``<div><nav>…</div><p>Body``: "Body" was lost with the rest of the page).
# "11": a reStructuredText section title is a heading (and the first one the file's title), its
# adornment lines are not text ("Forklift licences -----------------" was quoted as a sentence).
# "12": a PDF sentence that runs on to the next page is one sentence (it was cut at the page
# break, and its end lost), and a running header repeated only on some pages is dropped.
# "13": an HTML table is one pipe table with its <th> header, so its rows are read with their
# column names ("Shipment type | Return fee" was a passage of its own, the rows without it).
# "14": a paragraph longer than ``index.chunk_chars`` is cut at sentence ends of every script
# (a Russian, Greek or Hindi sentence, one opening in lower case or with "¿", a Japanese "。"):
# it was cut at a space in mid-sentence, and the answer quoted half a sentence; a Markdown
# link whose URL holds parentheses (``Python_(programming_language)``) reads as its text (a
# heading's title was "Using Python) with citecast").
# "15": audience rules apply to a file whose folder was ingested alone (``ingest docs/internal``
# under a rule ``internal/*``), from the config file's folder too, and a group name holding
# "|" is refused: "14" and older indexed such files as public, so they must be read again.
# "16": rules also match a file's path inside each folder below the outermost one ingested
# (``hr/*`` for ``kb/hr/pay.md`` after ``citecast ingest .``: "15" indexed it as public), and
# a title or section name is cut to 200 characters (a 30,000-word heading was stored whole).
# "17": ``index.url_templates`` globs match the same paths of a file as audience rules do
# (``many/*.md`` gave ``docs/many/x.md`` no link after ``citecast ingest docs/many``, and a
# subfolder's run stemmed its files from the subfolder): stored URLs change.
READER_VERSION = "17"


def reader_mark() -> str:
    """How every fingerprint this citecast writes starts (``r13:``), naming its reader.

    The reader version was only hashed into the fingerprint, so nothing but a whole ingest
    run could tell that an index was read by an older citecast (whose ``serve`` then kept
    quoting HTML tables without their header row until someone ran ``citecast ingest``).
    A fingerprint without this mark was written before it existed, by an older reader.
    """
    return f"r{READER_VERSION}:"


def resolve_roots(paths: Sequence[str | Path]) -> list[Path]:
    """Absolute paths of the arguments; a missing one is an error before anything is written.

    So is one that is neither a regular file nor a folder (``/dev/null``, a FIFO): there is
    nothing to index in it, and reading a FIFO would wait forever.
    """
    roots: list[Path] = []
    for raw in paths:
        path = Path(raw).expanduser()
        if not path.exists():
            raise KnowledgeIndexError(f"{raw}: no such file or folder")
        if not (path.is_file() or path.is_dir()):
            raise KnowledgeIndexError(f"{raw}: not a regular file or folder")
        resolved = path.resolve()
        if not utf8_name(str(resolved)):  # SQLite cannot store it, nor a Source carry it
            raise KnowledgeIndexError(f"{shown(str(raw))}: {BAD_NAME}")
        roots.append(resolved)
    return roots


def ingest(
    paths: Sequence[str | Path],
    settings: IndexSettings,
    *,
    audience: Sequence[str] | None = None,
    rebuild: bool = False,
    on_file: Callable[[str], None] | None = None,
    on_page: PageCallback | None = None,
    on_chunk: Callable[[], None] | None = None,
    above: Sequence[Path] = (),
    previous: Path | None = None,
) -> IngestReport:
    """Ingest ``paths`` into the index at ``settings.path``; returns the run's report.

    ``audience`` (the ``--audience`` groups) is checked like front matter: naming no group is
    a ValidationError, never a silent ``public``. ``on_file(relpath)`` runs before each file
    and ``on_page(page, pages)`` before each page of a PDF; a KeyboardInterrupt either raises
    (Ctrl-C) stops the run there, the PDF being read left out whole (any other exception from
    ``on_page`` counts as its reader's failure and skips the file). ``on_chunk()`` runs before
    each passage of a file is made: a KeyboardInterrupt from it stops the run inside one huge
    file (a 45 MB log takes minutes), that file left out whole, as a PDF is.

    ``above``: more folders (the config file's) up to which audience rules are tried against
    the paths above an ingested folder, besides the working directory. ``previous``: the index
    whose earlier ``--audience`` a run without one keeps (default: ``settings.path``; the old
    index when a rebuild is built in a new file).
    """
    roots = resolve_roots(paths)
    if audience is not None:
        audience = document_audience(list(audience))
    index_path = Path(settings.path).resolve()
    hooks = (on_page, on_chunk)
    # read before anything is written (a rebuild deletes the index first)
    kept = read_kept(previous or index_path)
    try:
        report = _ingest(
            roots, index_path, settings, audience, rebuild, on_file, hooks, (kept, above)
        )
    except sqlite3.Error as exc:
        hint = " (is another `citecast ingest` running?)" if "locked" in str(exc) else ""
        hint = hint or unwritable(index_path)
        raise KnowledgeIndexError(f"cannot write {index_path}: {exc}{hint}") from None
    report.narrowed = narrowed_since(index_path, kept.files)  # as the index had them before
    exposed = readable_by_others(index_path)  # made by an older citecast, or shared on purpose
    if exposed:
        report.notes.append(Skipped(str(index_path), exposed))  # absolute, as serve's
    return report


def _ingest(
    roots: Sequence[Path],
    index_path: Path,
    settings: IndexSettings,
    audience: Sequence[str] | None,
    rebuild: bool,
    on_file: Callable[[str], None] | None,
    hooks: tuple[PageCallback | None, Callable[[], None] | None],
    earlier: tuple[KeptAudiences, Sequence[Path]],
) -> IngestReport:
    kept, above = earlier
    # a rebuild removes what the old index held and this run does not index again
    before = indexed_paths(index_path) if rebuild else None
    writer = IndexWriter(index_path, rebuild=rebuild)
    report = IngestReport()
    options = f"{SCHEMA_VERSION}|{READER_VERSION}|{settings.chunk_chars}|{settings.chunk_overlap}"
    pending = 0
    try:
        for root in roots:
            writer.add_root(root)
        remember(writer.conn, roots, audience, kept)
        # Every folder ever ingested here, so audience rules see a file's path inside each.
        folders = [folder for folder in writer.roots() if folder.is_dir()]
        rules = RunRules(folders, rule_tops(above))
        templates = RunTemplates()
        visited = Visited(roots)
        folders_skipped: dict[Path, Skipped] = {}
        for root in roots:
            for entry in walk(root, index_path, folders_skipped):
                if not visited.first(root, entry.path):
                    continue
                if not is_supported(entry.path):
                    report.ignored += 1
                    suffix = entry.path.suffix.lower()
                    report.ignored_suffixes[suffix] = report.ignored_suffixes.get(suffix, 0) + 1
                    continue
                report.files += 1
                if on_file is not None:
                    on_file(entry.relpath)
                default = audience if audience is not None else kept.default(entry.path)
                with writer.one_file():
                    took = _ingest_one(
                        writer, entry, (rules, templates), settings, default, options, report, hooks
                    )
                if took and audience is None:
                    kept.count(entry.path, entry.relpath)
                pending += 1
                if pending >= BATCH_FILES:
                    writer.commit()
                    pending = 0
            # A file root too: re-ingested and now unreadable, its old chunks must go.
            report.removed += writer.remove_unseen(root)
        report.folders_skipped = list(folders_skipped.values())
        report.notes.extend(Skipped(where, why) for where, why in kept.notes())
        report.removed += writer.remove_missing()
        warn_of_globs(report, writer, settings, (rules, templates), roots)
        writer.commit()
        if not rebuild:
            report.compacted = compact(writer.conn)
    finally:
        writer.close()
    if before:
        report.removed += len(before - (indexed_paths(index_path) or frozenset()))
    return report


def _checked(chunks: Iterator[Chunk], check: Callable[[], None]) -> Iterator[Chunk]:
    """``chunks``, with ``check()`` run between each two of them (chunking is lazy: a stop
    comes between two passages of a large file, not after the file; a file of one passage is
    never stopped inside)."""
    following = next(chunks, None)
    while following is not None:
        chunk, following = following, next(chunks, None)
        yield chunk
        if following is not None:
            check()


def _ingest_one(
    writer: IndexWriter,
    entry: Entry,
    run: tuple[RunRules, RunTemplates],
    settings: IndexSettings,
    default_audience: Sequence[str] | None,
    options: str,
    report: IngestReport,
    hooks: tuple[PageCallback | None, Callable[[], None] | None] = (None, None),
) -> bool:
    """Index one file (or skip it, or note it unchanged); True when it took (read now or
    unchanged since) ``default_audience`` (no front matter audience, no rule), for the
    summary's notes."""
    rules, templates = run
    on_page, on_chunk = hooks
    if entry.problem is not None:
        report.skipped.append(Skipped(entry.relpath, entry.problem))
        return False
    # A symlink may point anywhere (kb/link.md -> /etc/passwd): only what resolves inside the
    # ingested root is read, and it is read through the resolved path that was checked.
    try:
        target = entry.path.resolve()
    except RuntimeError:  # Python 3.11's word for a symlink loop
        report.skipped.append(Skipped(entry.relpath, "symlink loop"))
        return False
    except OSError as exc:
        report.skipped.append(Skipped(entry.relpath, f"cannot read: {exc.strerror or exc}"))
        return False
    if entry.root.is_dir() and not target.is_relative_to(entry.root):
        report.skipped.append(Skipped(entry.relpath, OUTSIDE_ROOT))
        return False
    if not target.exists():
        report.skipped.append(Skipped(entry.relpath, BROKEN_LINK))
        return False
    if not target.is_file():  # a FIFO or device named like a document: reading it would hang
        report.skipped.append(Skipped(entry.relpath, NOT_REGULAR))
        return False
    try:
        data = read_within(target, settings.max_file_bytes)
    except Unreadable as exc:  # over index.max_file_bytes: never read whole
        report.skipped.append(Skipped(entry.relpath, str(exc)))
        return False
    except OSError as exc:
        report.skipped.append(Skipped(entry.relpath, f"cannot read: {exc.strerror or exc}"))
        return False
    report.bytes_read += len(data)
    ruled = rules.audience(entry.path, entry.rule_path, settings, default_audience)
    if ruled.reason:
        report.skipped.append(Skipped(entry.relpath, ruled.reason))
        return False
    audience = ruled.audience
    if target != entry.path and entry.root.is_dir():
        # A symlink is read by whom both its own path's rules and its target's allow:
        # ``faq/pay.md -> ../internal/pay.md`` must not publish what ``internal/*`` keeps for
        # staff, nor may a link in ``internal/`` show its name to everyone (the target is
        # inside the root: checked).
        inside = target.relative_to(entry.root).as_posix()
        target_ruled = rules.audience(target, inside, settings, default_audience)
        if target_ruled.reason:
            report.skipped.append(Skipped(entry.relpath, target_ruled.reason))
            return False
        targets = target_ruled.audience
        if not narrower(audience, targets):
            reason = (
                f"a link for {', '.join(audience)} to a file for {', '.join(targets)}: "
                "no group may see both"
            )
            report.skipped.append(Skipped(entry.relpath, reason))
            return False
        audience = narrower(audience, targets)
    digest = hashlib.sha256(data)
    url = templates.url(rules, entry.path, entry.rule_path, settings)
    digest.update(f"|{options}|{','.join(audience)}|{url}".encode())
    # a file that took the default says so in its fingerprint: unchanged, it is still counted
    # among the files keeping an earlier run's audience (only a read showed it has none)
    took_default = digest.copy()
    took_default.update(b"|default")
    fingerprints = (reader_mark() + digest.hexdigest(), reader_mark() + took_default.hexdigest())
    stored = writer.fingerprint(entry.path)
    if stored in fingerprints:
        writer.mark_seen(entry.path)
        report.unchanged += 1
        return stored == fingerprints[1]
    try:
        # only when asked for: a reader stand-in need not take the callback
        progress = {} if on_page is None else {"on_page": on_page}
        document = read_document(entry.path, data, **progress)
    except Unreadable as exc:
        report.skipped.append(Skipped(entry.relpath, str(exc)))
        return False
    except Exception as exc:  # a hostile or odd file must never stop the run
        report.skipped.append(Skipped(entry.relpath, f"reader failed: {exc!r}"[:200]))
        return False
    url, note = page_url(document.url, url)
    if url != document.url:
        document = replace(document, url=url)
    if note:
        report.notes.append(Skipped(entry.relpath, note))
    chunks = chunk_blocks(document.blocks, settings.chunk_chars, settings.chunk_overlap)
    if on_chunk is not None:
        chunks = _checked(chunks, on_chunk)
    took = not document.audience and not ruled.globs
    count = writer.replace_file(
        entry.path,
        writer.relpath_for(entry.path, entry.relpath),
        fingerprints[1] if took else fingerprints[0],
        len(data),
        document,
        chunks,
        document.audience or audience,
    )
    report.indexed += 1
    if stored is not None and not stored.startswith(reader_mark()):
        report.reread += 1
    report.warnings.extend(Skipped(entry.relpath, warning) for warning in document.warnings)
    report.chunks += count
    report.pages += document.pages or 0
    return took
