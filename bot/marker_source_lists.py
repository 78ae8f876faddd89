"""Trailing source lists the model wrote, decided at their heading's line start (a base of
:class:`bot.marker_line_starts.LineStarts`).

A "Sources:" heading (or a rule right above one) whose items only name registry sources, by
the grammar's ``is_source_list`` judge, is removed with its items up to the end of the answer
or a closing line (:mod:`bot.marker_sign_offs`); a ``"listed"`` marker stands for it, for the
resolver to cite what only the list named (:mod:`bot.resolver_listed`). A rule right above
footnote definitions that end the answer goes too (the definitions go line by line).
"""

from __future__ import annotations

from bot.marker_lines import (
    FOOTDEF,
    FOOTDEF_BARE,
    HEADING,
    HEADING_INITIALS,
    MAX_HEADING,
    MAX_SOURCE_LIST,
    could_be_heading,
    indent_width,
    read_source_items,
)
from bot.marker_parse import Grammar, Marker
from bot.marker_source_line import one_line_source_items
from bot.marker_tokens import Token


class SourceLists:
    """The source-list state of a scan (set up by LineStarts) and its decisions."""

    grammar: Grammar
    _base: int
    _line_start: bool
    _blank_before: bool
    _src_head: int
    _src_scan: int
    _src_items: list[str]
    _src_rejected: int
    _src_stop: int

    def _strip_list(self, buf: str, pos: int, out: list[Token]) -> int:
        """Remove the source list that starts at ``pos`` (its heading, or a rule above it): a
        "listed" marker stands for it, for the resolver to cite what only the list named."""
        n = len(buf)
        end = n if self._src_stop < 0 else self._src_stop - self._base
        items = tuple(self._src_items)
        out.append(Marker("listed", buf[pos:end], self._base + pos, ids=items))
        if end < n:
            # a model's closing line after the list stays (marker_sign_offs)
            self._src_stop = -1
            self._blank_before = True
            return end
        self._line_start = False
        return n

    def _rule_list(self, buf: str, pos: int, nl: int, final: bool, out: list[Token]) -> int | None:
        """For a thematic break at ``pos``: where to scan on when a source list that is
        stripped follows it (blank lines between or not), -1 to wait, None when none does."""
        if nl < 0:
            return None if final else -1
        at = nl + 1
        while at - pos <= MAX_HEADING:  # the blank lines after the rule
            end = buf.find("\n", at)
            if end < 0 or buf[at:end].strip(" \t\r"):
                break
            at = end + 1
        if at - pos > MAX_HEADING:
            return None
        nxt = buf.find("\n", at)
        line = buf[at : nxt if nxt >= 0 else len(buf)]
        stripped = line.lstrip(" \t")
        if stripped[:1] == "[":
            return self._rule_definitions(buf, at, final)
        if not stripped or stripped[0] not in HEADING_INITIALS or len(line) > MAX_HEADING:
            return None if stripped or final else -1
        if not could_be_heading(stripped):
            return None
        if nxt < 0 and not final:
            return -1
        inline = one_line_source_items(line)
        if inline is None and not HEADING.fullmatch(line):
            return None
        verdict = self._source_list(buf, at, nxt, final, inline or [])
        if verdict == "need":
            return -1
        if verdict == "strip":
            return self._strip_list(buf, pos, out)
        self._src_rejected = self._base + pos
        return None

    def _rule_definitions(self, buf: str, at: int, final: bool) -> int | None:
        """For a rule whose next line (at ``at``) begins with "[": ``at`` when only footnote
        definitions (``[^1]: …``, ``[1]: …`` where bare numbers are markers), their indented
        continuation lines and blank lines follow it to the end, so the rule goes with them;
        -1 to wait, None when anything else follows."""
        key = ~(self._base + at)  # (the progress fields of a heading's list, for this rule)
        if self._src_head != key:
            self._src_head = key
            self._src_scan = self._base + at
        scan = self._src_scan - self._base
        bare = self.grammar.bare_groups()
        while scan - at <= MAX_SOURCE_LIST:
            nl = buf.find("\n", scan)
            if nl < 0 and not final:
                self._src_scan = self._base + scan
                return -1
            line = buf[scan : nl if nl >= 0 else len(buf)]
            stripped = line.lstrip(" \t")
            if (
                stripped.strip("\r")
                and not (scan > at and indent_width(line) >= 4)
                and FOOTDEF.match(stripped) is None
                and (not bare or FOOTDEF_BARE.match(stripped) is None)
            ):
                return None
            if nl < 0:
                self._blank_before = True
                return at
            scan = nl + 1
        return None

    def _source_list(
        self, buf: str, head: int, head_nl: int, final: bool, inline: list[str]
    ) -> str:
        """ "strip", "keep" or "need" for the heading line at ``head`` and what follows it
        (``inline``: the items a one-line list wrote on the heading's line)."""
        judge = self.grammar.is_source_list
        assert judge is not None
        if self._src_head != self._base + head:
            self._src_head = self._base + head
            self._src_scan = self._base + (head_nl + 1 if head_nl >= 0 else len(buf))
            self._src_items = list(inline)
        verdict, scan = read_source_items(
            buf, self._src_scan - self._base, head, final, self._src_items
        )
        if verdict == "sign_off":
            self._src_stop = self._base + scan
            return "strip" if judge(list(self._src_items)) else "keep"
        if verdict is not None:
            return verdict
        self._src_scan = self._base + scan
        if not final:
            return "keep" if scan - head > MAX_SOURCE_LIST else "need"
        return "strip" if judge(list(self._src_items)) else "keep"
