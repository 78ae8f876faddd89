"""Indexing one file of an ingest run: the checks before it is read, its fingerprint, its chunks.

Split from :mod:`bot.knowledge.ingest`, which walks the run's paths and calls
:func:`ingest_file` for each file it visits. A file is skipped, with the reason, when the walk
found a problem with it, when it is a symlink that leads out of the outermost ingested folder
holding it (:func:`holding_folder`), to nothing, or to something other than a regular file (a
FIFO would hang the read), when it is larger than ``index.max_file_bytes``, when its audience
is refused, or when its reader fails. Otherwise it is fingerprinted (its bytes, the reader
version, the chunk settings, its audience and URL): a file whose fingerprint is stored already
is noted unchanged and not read again; any other is read, chunked and written in place of its
old chunks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from bot.config import IndexSettings
from bot.knowledge.audience_rules import RunRules, narrower
from bot.knowledge.chunking import Chunk, chunk_blocks
from bot.knowledge.document import Unreadable
from bot.knowledge.file_bytes import read_within
from bot.knowledge.file_fingerprint import content_digest
from bot.knowledge.file_fingerprint import fingerprints as file_fingerprints
from bot.knowledge.file_urls import RunTemplates, page_url
from bot.knowledge.ingest_report import IngestReport
from bot.knowledge.pdf_reader import PageCallback
from bot.knowledge.readers import read_document
from bot.knowledge.schema import SCHEMA_VERSION
from bot.knowledge.walk import BROKEN_LINK, NOT_REGULAR, OUTSIDE_ROOT, Entry, Skipped
from bot.knowledge.writer import IndexWriter

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
# "18": front matter names the audience in any case (``Audience: staff``, TOML ``[Params]``),
# after blank lines, or as Hugo's JSON; a near miss (``audiences:``) skips the file; an HTML
# page's audience tags and front matter all narrow it (the last tag, even in the body, or the
# front matter decided), and its URL is the head's (a canonical link in the body replaced it):
# "17" indexed such files as public, or linked them to another site. A Markdown or MDX page's
# raw ``<script>`` and ``<style>`` elements are not text ("17" indexed their CSS and JavaScript,
# "Install alert(1) now" was a section name), nor is a comment opened inside a paragraph's
# line and closed on a later one. A title or heading cut to 200 characters keeps whole
# characters (a flag, an emoji sequence, a letter with its combining marks: "17" kept half).
# A long paragraph is not cut into passages after an abbreviation, an initial or a date's
# ordinal ("Dr. Weber", "am 3. Oktober"), and is cut after the Urdu "۔" and other scripts' full
# stops (bot.sentence_rules): "17" cut mid-sentence there. A PDF sentence joined across a page
# edge ends by the same rule ("lot B. The garage …" ends after "B.": "17" moved the garage
# sentence to the page before; "am 3. Oktober" no longer ends after "3."). Front matter
# naming an audience that is never closed, or whose fence is mistyped, skips the file ("18"
# indexed it as public text); an audience ``Public`` is ``public``, and a ``<meta
# property="citecast:audience">`` counts; soft hyphens leave every reader's text, and a file
# or block of zero-width characters alone is empty.
# "20": a short PDF line with nothing under it on its page (a contact line ending a page or
# the file) is text of that page: "19" read it as a heading, so it was lost, or named the
# next page's passage; a heading opening a page above a sentence in lower case ("2. Storage" /
# "the walk-in freezer …") is that page's section ("19" joined it into the sentence).
# "21": a raw ``<pre>`` block in a Markdown file is a code block, as an HTML page's is, and an
# HTML page's inline ``<code>`` a code span ("20" stored both as prose, so "lookup [1]" lost
# its "[1]" on the way to the model, taken for a reference mark).
# "22": front matter under a line opening with an HTML comment names the audience whatever
# follows the comment on that line (``<!-- a --> <!-- b -->``, ``<!-- generated --> do not
# edit``), and under a ``%YAML 1.2`` directive; a full-width ``ａｕｄｉｅｎｃｅ:`` key, an
# HTML ``<meta name="cite-cast:audience">``, ``itemprop=`` or ``http-equiv=`` audience tag
# skips the file with the reason; an HTML attribute written twice is its first copy, as in
# a browser. "21" indexed such files as public (and read front matter under a comment line
# alone only in its last builds, with no bump: an index of the earlier ones is read again).
READER_VERSION = "22"


def reader_mark() -> str:
    """How every fingerprint this citecast writes starts (``r13:``), naming its reader.

    The reader version was only hashed into the fingerprint, so nothing but a whole ingest
    run could tell that an index was read by an older citecast (whose ``serve`` then kept
    quoting HTML tables without their header row until someone ran ``citecast ingest``).
    A fingerprint without this mark was written before it existed, by an older reader.
    """
    return f"r{READER_VERSION}:"


def fingerprint_options(settings: IndexSettings, reader: str | None = None) -> str:
    """What of the run, besides a file's bytes, goes into every fingerprint: the schema and
    reader versions and the chunk settings (changing any of them re-reads every file).
    ``reader``: the version of another reader (a stored fingerprint's), else this one's."""
    version = READER_VERSION if reader is None else reader
    return f"{SCHEMA_VERSION}|{version}|{settings.chunk_chars}|{settings.chunk_overlap}"


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


def holding_folder(entry: Entry, folders: Sequence[Path]) -> Path | None:
    """The folder a symlink found at ``entry`` may lead to a file in: the outermost of
    ``folders`` (every folder ingested into the index, this run's included) that holds it, or
    None when the run's root is a file, named on its own.

    Not only this run's root: ``kb/faq/pay.md -> ../internal/pay.md`` that ``citecast ingest
    kb`` indexed must stay when ``kb/faq`` is re-ingested (its id with it), as audience rules
    look at every folder holding a file. A link leading out of every ingested folder is never
    read: a first run of ``kb/faq`` alone still skips this one.
    """
    if not entry.root.is_dir():
        return None
    holding = [f for f in (entry.root, *folders) if entry.path.is_relative_to(f)]
    return min(holding, key=lambda f: len(f.parts))


def ingest_file(
    writer: IndexWriter,
    entry: Entry,
    run: tuple[RunRules, RunTemplates],
    settings: IndexSettings,
    default_audience: Sequence[str] | None,
    options: str,
    report: IngestReport,
    hooks: tuple[PageCallback | None, Callable[[], None] | None] = (None, None),
    *,
    target_default: Callable[[Path], Sequence[str] | None],
) -> bool:
    """Index one file (or skip it, or note it unchanged); True when it took (read now or
    unchanged since) ``default_audience`` (no front matter audience, no rule), for the
    summary's notes. ``target_default(path)``: what a symlink's target at ``path`` takes in
    place of ``default_audience`` (its folder's remembered ``--audience``, say)."""
    rules, templates = run
    on_page, on_chunk = hooks
    if entry.problem is not None:
        report.skipped.append(Skipped(entry.relpath, entry.problem))
        return False
    # A symlink may point anywhere (kb/link.md -> /etc/passwd): only what resolves inside an
    # ingested folder holding it is read, and through the resolved path that was checked.
    try:
        target = entry.path.resolve()
    except RuntimeError:  # Python 3.11's word for a symlink loop
        report.skipped.append(Skipped(entry.relpath, "symlink loop"))
        return False
    except OSError as exc:
        report.skipped.append(Skipped(entry.relpath, f"cannot read: {exc.strerror or exc}"))
        return False
    folder = holding_folder(entry, rules.folders)
    if folder is not None and not target.is_relative_to(folder):
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
    globs = ruled.globs  # the rules that decided the audience, the link's and its target's
    if target != entry.path and folder is not None:
        # A symlink is read by whom both its own path's rules and its target's allow:
        # ``faq/pay.md -> ../internal/pay.md`` must not publish what ``internal/*`` keeps for
        # staff, nor may a link in ``internal/`` show its name to everyone (the target is
        # inside ``folder``: checked). The target's default is its own: ``internal`` ingested
        # with ``--audience staff`` keeps ``faq/pay.md`` from a later run without one.
        inside = target.relative_to(folder).as_posix()
        target_ruled = rules.audience(target, inside, settings, target_default(target))
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
        globs = (*globs, *target_ruled.globs)
    url = templates.url(rules, entry.path, entry.rule_path, settings)
    fingerprints = file_fingerprints(
        content_digest(data),
        mark=reader_mark(),
        options=options,
        audience=audience,
        url=url,
        link_to=None if target == entry.path else target,
    )
    stored = writer.fingerprint(entry.path)
    if stored in fingerprints:
        writer.mark_seen(entry.path)
        report.unchanged += 1
        # a rule (the link's or its target's) gave the audience, never the default: an older
        # citecast, which left the target's rules out, stored such a link as taking it
        return stored == fingerprints.took_default and not globs
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
    took = not document.audience and not globs
    own = document.audience or audience
    if document.audience and target != entry.path and ruled.globs:
        # the target's front matter decides for the target, but a rule of the link's own path
        # still narrows the link: a link in internal/ to a public page is only found by staff
        own = narrower(document.audience, ruled.audience)
        if not own:
            reason = (
                f"a link for {', '.join(ruled.audience)} to a file whose front matter gives "
                f"{', '.join(document.audience)}: no group may see both"
            )
            report.skipped.append(Skipped(entry.relpath, reason))
            return False
    if document.audience and target == entry.path:
        fingerprint = fingerprints.own_audience
    else:
        fingerprint = fingerprints.took_default if took else fingerprints.plain
    count = writer.replace_file(
        entry.path,
        writer.relpath_for(entry.path, entry.relpath),
        fingerprint,
        len(data),
        document,
        chunks,
        own,
    )
    report.indexed += 1
    if stored is not None and not stored.startswith(reader_mark()):
        report.reread += 1
    report.warnings.extend(Skipped(entry.relpath, warning) for warning in document.warnings)
    report.chunks += count
    report.pages += document.pages or 0
    return took
