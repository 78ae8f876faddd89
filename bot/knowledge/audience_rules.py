"""Which audience ``index.audience_rules`` give a file (used by :mod:`bot.knowledge.ingest`).

A rule's glob is matched against the file's path inside the outermost folder ingested into the
index that holds it (:func:`rule_paths`), so rules written for ``citecast ingest docs`` keep
applying when ``docs/internal`` is re-ingested later, and a parent's ``faq/*`` never matches
``internal/faq/…`` as ``faq/…``.

Ingesting the private folder itself first (``citecast ingest docs/internal``, ``ingest
docs/internal/pay.md``, or ``cd docs && ingest internal``) gives the shorter path ``pay.md``,
which ``internal/*`` does not match; ingesting a folder above the one the rules were written
for (``citecast ingest .`` from the config file's folder, after ``citecast ingest kb`` under a
rule ``hr/*``) gives the longer path ``kb/hr/pay.md``, which ``hr/*`` does not match either:
either way the file was indexed as public. So when no rule matches that path, the rules are
also tried against the file's path inside every other folder that holds it, from the file's
own folder up to the working directory or the config file's folder, whichever holds the file
further up, or the outermost ingested folder when that is higher (``pay.md``,
``hr/pay.md``, ``internal/pay.md``, ``docs/internal/pay.md``): ``make serve`` re-reads an
index from the repository clone with ``--config /srv/deploy/config.yaml``, and the folders
the rules were written for are the deployment folder's.
Such a match can only narrow: the file gets the groups that it and the audience it would
otherwise have (``--audience``, else public) allow, and every rule that matches one of those
paths (the first one in config order for each path) narrows it further; when no group is
left, the file is skipped with the reason. A match there never widens an audience, so a
rule written for another folder (``faq/*`` → public matching ``internal/faq/x.md`` as
``faq/x.md``) cannot publish what ``--audience`` or another rule keeps private. When a rule
does match that path, the rules written before it in the config narrow it the same way (a
catch-all ``*`` → staff written last matches ``kb/hr/pay.md`` after ``citecast ingest .``;
``hr/*`` → hr written before it still applies, as it did for ``citecast ingest kb``), and
the rules after it do not (``*`` → staff never narrows what ``faq/*`` → public gives).
:func:`unmatched_rules` names the rules that matched no file of a run, for a warning.
The paths themselves, shared with ``index.url_templates``, come from
:mod:`bot.knowledge.glob_paths`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.config import AudienceRule, IndexSettings
from bot.knowledge.glob_paths import glob_paths, matching_path, other_paths, rule_paths

PUBLIC = "public"


@dataclass(frozen=True)
class RuledAudience:
    """A file's audience before front matter, and the globs of the rules that gave it.

    ``audience`` is empty when a rule matched above the ingested folder and shares no group
    with the audience the file would otherwise have: ``reason`` then says why it is skipped.
    """

    audience: tuple[str, ...]
    globs: tuple[str, ...] = ()
    reason: str = ""


def first_rule(paths: Iterable[str], rules: Sequence[AudienceRule]) -> AudienceRule | None:
    """The first rule (in config order) whose glob matches any of ``paths``."""
    candidates = tuple(paths)
    found = (rule for rule in rules if matching_path(rule.glob, candidates) is not None)
    return next(found, None)


def base_audience(
    rule_paths: Sequence[str], settings: IndexSettings, default: Sequence[str] | None
) -> tuple[str, ...]:
    """The audience before front matter: the first rule matching any of ``rule_paths`` (see
    :func:`rule_paths`), else ``default``, else public."""
    rule = first_rule(rule_paths, settings.audience_rules)
    if rule is not None:
        return tuple(rule.audience)
    return tuple(default) if default else (PUBLIC,)


def narrower(first: Sequence[str], second: Sequence[str]) -> tuple[str, ...]:
    """The audience of what both ``first`` and ``second`` allow (a symlink's rules and its
    target's): ``public`` allows everyone, so the other one decides; otherwise the groups both
    name (empty: no one both allow)."""
    if PUBLIC in first:
        return tuple(second)
    if PUBLIC in second:
        return tuple(first)
    return tuple(group for group in first if group in second)


def ruled_audience(
    entry_path: Path,
    rule_path: str,
    folders: Sequence[Path],
    settings: IndexSettings,
    default: Sequence[str] | None,
    top: Path | None,
) -> RuledAudience:
    """The audience the rules give the file at ``entry_path`` (see the module docstring)."""
    paths = rule_paths(entry_path, rule_path, folders)
    rules = list(settings.audience_rules)
    rule = first_rule(paths, rules)
    gives: list[str] = []  # what decided and what narrowed, for the reason to skip
    if rule is not None:
        audience = tuple(rule.audience)
        globs = [rule.glob]
        gives.append(f"audience rule {rule.glob} gives {', '.join(rule.audience)} (as {paths[0]})")
        # only a rule written before it: ``*`` last (private by default) must not narrow
        # ``faq/*`` to staff, but ``hr/*`` before ``*`` keeps ``kb/hr/pay.md`` from staff
        rules = rules[: rules.index(rule)]
    else:
        otherwise = tuple(default) if default else (PUBLIC,)
        audience, globs = otherwise, []
        if PUBLIC not in otherwise:
            gives.append(f"--audience {', '.join(otherwise)}")
    for path in other_paths(entry_path, paths[0], top):
        # each path's own first rule, as a run of the folder it is taken from would find it
        other = first_rule((path,), rules)
        if other is not None and other.glob not in globs:
            globs.append(other.glob)
            audience = narrower(audience, other.audience)
            gives.insert(
                len(globs) - 1,
                f"audience rule {other.glob} gives {', '.join(other.audience)} (as {path})",
            )
    reason = ""
    if not audience:
        reason = f"{' and '.join(gives)}: no group may see {'both' if len(gives) == 2 else 'all'}"
    return RuledAudience(audience, tuple(globs), reason)


def globs_deciding(
    entry_path: Path, folders: Sequence[Path], settings: IndexSettings, top: Path | None
) -> tuple[str, ...]:
    """The globs of the rules that give (or narrow) the audience of the indexed file at
    ``entry_path``, as a run of its folder would find them (for :func:`unmatched_rules`: a
    rule that a file outside this run's folders uses is no mistake)."""
    return ruled_audience(entry_path, entry_path.name, folders, settings, None, top).globs


def unmatched_rules(settings: IndexSettings, matched: Iterable[str]) -> list[str]:
    """The globs of ``settings.audience_rules`` not in ``matched``, in config order, once."""
    seen = set(matched)
    return list(dict.fromkeys(r.glob for r in settings.audience_rules if r.glob not in seen))


@dataclass(frozen=True)
class RunRules:
    """What audience rules see in one ingest run: every folder ingested into the index, the
    folders where the paths above an ingested folder stop (``tops``: the working directory
    and the config file's folder), and the globs that gave a file its audience so far (for
    :func:`unmatched_rules`)."""

    folders: Sequence[Path]
    tops: Sequence[Path]
    matched: set[str] = field(default_factory=set)

    def top(self, path: Path) -> Path | None:
        """The outermost of ``tops`` holding ``path`` (its paths above reach furthest up),
        or None when none holds it."""
        holding = [top for top in self.tops if path.is_relative_to(top)]
        return min(holding, key=lambda top: len(top.parts)) if holding else None

    def paths(self, path: Path, rule_path: str) -> tuple[str, ...]:
        """:func:`bot.knowledge.glob_paths.glob_paths` of one file of the run: every path of
        it that globs are tried against, in order (``index.url_templates`` use them)."""
        return glob_paths(path, rule_path, self.folders, self.top(path))

    def others(self, indexed: Iterable[Path], roots: Sequence[Path]) -> Iterable[Path]:
        """The files of ``indexed`` outside this run's ``roots`` (read by this run)."""
        for path in indexed:
            if not any(path == root or path.is_relative_to(root) for root in roots):
                yield path

    def audience(
        self, path: Path, rule_path: str, settings: IndexSettings, default: Sequence[str] | None
    ) -> RuledAudience:
        """:func:`ruled_audience` of one file of the run, its rule remembered as matched."""
        top = self.top(path)
        ruled = ruled_audience(path, rule_path, self.folders, settings, default, top)
        self.matched.update(ruled.globs)
        return ruled

    def unused(
        self, settings: IndexSettings, indexed: Iterable[Path], roots: Sequence[Path]
    ) -> list[str]:
        """The globs of the rules that matched no file of this run and give no other file of
        the index (``indexed``: its files' paths, those under this run's ``roots`` left out,
        as the run has just read them) its audience: a rule that applies nowhere, whatever
        folder was ingested (a typo, or a glob written for another folder)."""
        unmatched = unmatched_rules(settings, self.matched)
        for path in self.others(indexed, roots):
            if not unmatched:
                break
            used = globs_deciding(path, self.folders, settings, self.top(path))
            unmatched = [glob for glob in unmatched if glob not in used]
        return unmatched


def working_directory() -> Path | None:
    """The working directory, resolved (None when it was removed while we run)."""
    try:
        return Path.cwd().resolve()
    except OSError:
        return None


def rule_tops(above: Sequence[Path] = ()) -> tuple[Path, ...]:
    """Where a run's paths above its folders stop: the working directory and ``above`` (the
    config file's folder), resolved, once each."""
    found = [working_directory(), *(folder.resolve() for folder in above)]
    return tuple(dict.fromkeys(top for top in found if top is not None))
