"""The Subject of a reply: ``Re: `` once, the subject's tags once, never ``Re: Re:``.

Mail clients prefix a reply's subject in their own language ("RE:", "AW:", "SV:", "Odp:",
"回复:", "答复：" with a full-width colon, "Re[2]:"), and mail gateways put a tag in front of it
("[EXTERNAL] RE: Installing"); a mailing list keeps its tag where it was ("Re: [support] Re:
Installing"). The reply's subject is ``Re: `` plus the subject with every reply prefix at its
start removed, also those behind a tag, and the tags there kept once each, in order:

- ``[EXTERNAL] RE: Installing`` -> ``Re: [EXTERNAL] Installing``
- ``Re: [support] Re: Installing`` -> ``Re: [support] Installing``
- ``回复：安装`` -> ``Re: 安装``; ``AW: SV: Installing`` -> ``Re: Installing``

Only the start is read: a prefix or tag after the first word of the subject's own text stays
("Installing: RE: the proxy"). A forward's prefix ("Fwd:") is the subject's text, as clients keep
it. A subject with nothing left (empty, or only prefixes) has no reply subject (""): the
connector then uses the answer's first line with words, as for any answer (``renderers.email``).
"""

from __future__ import annotations

import re

REPLY_WORDS = r"re|aw|sv|antw|antwort|r|vs|odp|ynt|rif|απ|σχετ|отв|ответ|回复|回覆|答复|答覆"
"""The reply prefixes of mail clients: English, German (AW, Antwort), Nordic (SV, VS), Dutch
(Antw), Italian (R, RIF), Polish (Odp), Turkish (YNT), Greek (ΑΠ, ΣΧΕΤ), Russian (Отв),
Chinese (回复, 答复, and their traditional forms)."""
_REPLY = re.compile(rf"^(?:{REPLY_WORDS})(?:\[\d+\]|\(\d+\)|\^\d+)?\s*[:\uff1a]\s*", re.IGNORECASE)
# a gateway's or a list's tag: short, on one line, no brackets inside
_TAG = re.compile(r"^\[([^\[\]]{1,60})\]\s*")


def reply_subject(subject: str) -> str:
    """``Re: `` plus ``subject`` without the reply prefixes at its start (see the module
    docstring), or "" when nothing is left of it."""
    tags, rest = subject_parts(subject)
    kept = " ".join([*tags, rest] if rest else tags)
    return f"Re: {kept}" if kept else ""


def subject_parts(subject: str) -> tuple[tuple[str, ...], str]:
    """The tags at the start of ``subject`` (once each, in order, as written) and its own text
    after every reply prefix and tag there: ``[EXTERNAL] AW: Abwesenheitsnotiz`` ->
    ``(("[EXTERNAL]",), "Abwesenheitsnotiz")``. The one reading of a subject's start: the
    reply's subject and the out-of-office check (``email_policy``) both use it."""
    rest = " ".join(subject.split())
    tags: list[str] = []
    seen: set[str] = set()
    while True:
        prefix = _REPLY.match(rest)
        if prefix is not None:
            rest = rest[prefix.end() :]
            continue
        tag = _TAG.match(rest)
        if tag is None:
            break
        shown = tag.group(0).rstrip()
        if shown.lower() not in seen:
            seen.add(shown.lower())
            tags.append(shown)
        rest = rest[tag.end() :]
    return tuple(tags), rest
